package api

import (
	"fmt"
	"mime"
	"net/http"

	"github.com/klauspost/compress/gzhttp"
)

// compress encodes answers with zstd or gzip when the client accepts one
// (zstd preferred), sending Vary: Accept-Encoding on every answer; bodies
// under 1 KiB go as they are. The ETag stays the table's version: it names
// the table's state, which the encoding does not change, and If-Match must
// keep matching it.
//
// Event streams are never encoded: a compressor holds back what it has
// not filled a block with, and each event must reach the client when it is
// flushed.
func compress() (func(http.Handler) http.Handler, error) {
	wrap, err := gzhttp.NewWrapper(gzhttp.ContentTypeFilter(func(ct string) bool {
		mt, _, err := mime.ParseMediaType(ct)
		return gzhttp.DefaultContentTypeFilter(ct) && (err != nil || mt != "text/event-stream")
	}))
	if err != nil {
		return nil, fmt.Errorf("compression: %w", err)
	}
	return func(next http.Handler) http.Handler { return wrap(next) }, nil
}
