package api

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"paiju/service"
)

// Exporter writes a table's stored log in the export format of
// docs/AUDIT.md (audit.Exporter is one).
type Exporter interface {
	// ContentType is the media type of an export.
	ContentType() string
	// WriteExport writes the first n stored events of raw and the store's
	// chain head, stamped with the export time at.
	WriteExport(w io.Writer, raw *service.Raw, n int, at time.Time) error
}

// exportTable answers GET /v1/tables/{id}/export: the table's stored log as
// JSON Lines (docs/AUDIT.md). The auditor gets the whole log. A player who
// was ever seated at the table gets the log up to the running deal, if any:
// every deal in it has ended, so the rules have revealed all of it to them.
// Anyone else gets 403 export_not_seated.
func (s *server) exportTable(w http.ResponseWriter, r *http.Request) {
	if s.Exporter == nil {
		s.writeError(w, r, problem(http.StatusServiceUnavailable, "export_unavailable", "this server does not export tables"))
		return
	}
	raw, err := s.Tables.LoadRaw(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c := callerOf(r.Context())
	stored := raw.Stored
	if !c.auditor {
		if !raw.EverSeated(c.playerID) {
			s.writeError(w, r, problem(http.StatusForbidden, "export_not_seated", "only the auditor and players who sat at this table may export it"))
			return
		}
		n := raw.EndedPrefix()
		if !raw.PublicPrefix(n) {
			s.writeError(w, r, problem(http.StatusForbidden, "export_hidden_information", "this game keeps some of the table's events hidden after their deal; only the auditor may export it"))
			return
		}
		stored = stored[:n]
	}
	var buf bytes.Buffer
	if err := s.Exporter.WriteExport(&buf, raw, len(stored), s.Now()); err != nil {
		s.writeError(w, r, fmt.Errorf("export table %s: %w", raw.State.ID, err))
		return
	}
	w.Header().Set("Content-Type", s.Exporter.ContentType())
	w.Header().Set("Content-Disposition", `attachment; filename="`+service.StreamID(raw.State.ID)+`.jsonl"`)
	setETag(w, len(stored))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}
