package api

import (
	"fmt"
	"mime"
	"net/http"
	"strings"

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
		return gzhttp.DefaultContentTypeFilter(ct) && !eventStream(ct)
	}))
	if err != nil {
		return nil, fmt.Errorf("compression: %w", err)
	}
	return func(next http.Handler) http.Handler { return wrap(next) }, nil
}

// eventStream reports whether the media type ct names is
// text/event-stream. mime.ParseMediaType makes a map of the parameters at
// every call, and this is asked of every answer worth compressing; it is
// called only when the type before any parameter reads as one.
func eventStream(ct string) bool {
	base, _, _ := strings.Cut(ct, ";")
	if !strings.EqualFold(strings.TrimSpace(base), "text/event-stream") {
		return false
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "text/event-stream"
}
