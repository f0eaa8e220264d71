package audit

import (
	"fmt"
	"io"
	"time"

	"paiju/service"
)

// Exporter exports tables the service loaded, for the HTTP API's
// /export route.
type Exporter struct{}

// ContentType is the media type of an export.
func (Exporter) ContentType() string { return ContentType }

// WriteExport writes the first n stored events of raw with the store's
// chain head read after them (docs/AUDIT.md, Export format).
func (Exporter) WriteExport(w io.Writer, raw *service.Raw, n int, at time.Time) error {
	if n < 0 || n > len(raw.Stored) {
		return fmt.Errorf("audit: export %d of %d events", n, len(raw.Stored))
	}
	return WriteExport(w, raw.Stored[:n], ChainHead{Position: raw.HeadPosition, Hash: raw.HeadHash}, at)
}
