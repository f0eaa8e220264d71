package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
)

// GaugeFunc registers a gauge read at scrape time, for state another part
// keeps (the relay's position, the store's head).
func (m *Metrics) GaugeFunc(name, help string, read func() float64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help}, read))
}

// GaugesFunc registers gauges with one label, read together at scrape time
// (the lag of each projection). A failed read reports no series, so a
// scrape shows the gap rather than a made-up value.
func (m *Metrics) GaugesFunc(name, help, label string, read func() (map[string]float64, error)) {
	m.reg.MustRegister(&gaugesFunc{
		desc: prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", name), help, []string{label}, nil),
		read: read,
	})
}

type gaugesFunc struct {
	desc *prometheus.Desc
	read func() (map[string]float64, error)
}

func (g *gaugesFunc) Describe(ch chan<- *prometheus.Desc) { ch <- g.desc }

func (g *gaugesFunc) Collect(ch chan<- prometheus.Metric) {
	vals, err := g.read()
	if err != nil {
		return // one failed read must not fail the whole scrape
	}
	for k, v := range vals {
		ch <- prometheus.MustNewConstMetric(g.desc, prometheus.GaugeValue, v, k)
	}
}
