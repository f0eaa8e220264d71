package cli

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"go.yaml.in/yaml/v4"
)

// TestComposeFile checks deploy/compose.yaml without a container engine:
// every paiju node's environment is read by serve as a cluster node's
// configuration (each PAIJU_ variable names a flag of serve), the NATS
// servers' configurations load with nats-server's own parser and form one
// JetStream cluster big enough for the replicas asked, and the proxy sends
// to every node.
func TestComposeFile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Environment map[string]string `yaml:"environment"`
			Command     []string          `yaml:"command"`
			Volumes     []string          `yaml:"volumes"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(b, &compose); err != nil {
		t.Fatalf("deploy/compose.yaml: %v", err)
	}
	interp := regexp.MustCompile(`\$\{([A-Z_]+)[^}]*\}`)
	caddy, err := os.ReadFile(filepath.Join("..", "..", "deploy", "Caddyfile"))
	if err != nil {
		t.Fatal(err)
	}
	var nodes, natsServers int
	replicas := 0
	for name, svc := range compose.Services {
		switch {
		case strings.HasPrefix(name, "paiju-"):
			nodes++
			env := map[string]string{}
			for k, v := range svc.Environment {
				env[k] = interp.ReplaceAllString(v, "secret")
			}
			asked := map[string]bool{}
			getenv := func(k string) string { asked[k] = true; return env[k] }
			// The auditor token file is a secret mounted at run time.
			delete(env, "PAIJU_AUDITOR_TOKEN_FILE")
			c, err := parseServe(nil, getenv, io.Discard)
			if err != nil {
				t.Fatalf("%s: serve refuses the environment: %v", name, err)
			}
			for k := range svc.Environment {
				if !asked[k] {
					t.Errorf("%s: %s is no flag of paiju serve", name, k)
				}
			}
			if c.Store == "" || c.NATS.URL == "" || c.NATS.NS.Cluster() == "" || len(c.TrustedProxies) == 0 {
				t.Errorf("%s: not a cluster node: store %q, NATS %q, cluster %q, trusted proxies %v", name, c.Store, c.NATS.URL, c.NATS.NS.Cluster(), c.TrustedProxies)
			}
			replicas = c.NATS.Limits.Replicas
			if !strings.Contains(string(caddy), name+":8080") {
				t.Errorf("deploy/Caddyfile does not send to %s", name)
			}
		case strings.HasPrefix(name, "nats-"):
			natsServers++
			conf := filepath.Join("..", "..", "deploy", "nats", name+".conf")
			if !slices.Contains(svc.Volumes, "./nats/"+name+".conf:/etc/nats/nats.conf:ro") {
				t.Errorf("%s does not mount %s", name, conf)
			}
			o, err := server.ProcessConfigFile(conf)
			if err != nil {
				t.Fatalf("%s: %v", conf, err)
			}
			if !o.JetStream || o.Cluster.Name == "" || len(o.Routes) != 3 || o.ServerName != name {
				t.Errorf("%s: JetStream %v, cluster %q with %d routes, server name %q", conf, o.JetStream, o.Cluster.Name, len(o.Routes), o.ServerName)
			}
		}
	}
	if nodes != 3 || natsServers != 3 {
		t.Fatalf("compose.yaml has %d paiju nodes and %d NATS servers, want 3 and 3", nodes, natsServers)
	}
	if replicas > natsServers {
		t.Fatalf("--nats-replicas %d with %d NATS servers", replicas, natsServers)
	}
}
