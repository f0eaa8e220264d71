package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"unicode/utf8"

	"paiju/api/strictjson"
)

// maxBody bounds every request body; a card game never needs more.
const maxBody = 64 << 10

// readBody reads a JSON request body: at most maxBody bytes, valid UTF-8, and
// sent as application/json (a body without a Content-Type is refused with
// 415). An empty body needs no type and is returned as "{}" when allowEmpty.
func readBody(w http.ResponseWriter, r *http.Request, allowEmpty bool) ([]byte, error) {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, problem(http.StatusRequestEntityTooLarge, "body_too_large", fmt.Sprintf("the request body is larger than %d bytes", maxBody))
	}
	if err != nil {
		return nil, problem(http.StatusBadRequest, "unreadable_body", "the request body could not be read")
	}
	if len(body) == 0 {
		if allowEmpty {
			return []byte("{}"), nil
		}
		return nil, problem(http.StatusBadRequest, "malformed_json", "the request body is empty; send a JSON object")
	}
	// A body without its type is refused like one of the wrong type: a
	// client that leaves it out may not be sending what it thinks.
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return nil, problem(http.StatusUnsupportedMediaType, "unsupported_media_type", "send the body as application/json, with Content-Type: application/json")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if allowEmpty {
			return []byte("{}"), nil
		}
		return nil, problem(http.StatusBadRequest, "malformed_json", "the request body is blank; send a JSON object")
	}
	if !utf8.Valid(body) {
		return nil, problem(http.StatusBadRequest, "malformed_json", "the request body is not valid UTF-8")
	}
	return body, nil
}

// decodeStrict decodes one JSON object into v, rejecting what Go's decoder
// lets through by default (see strictjson).
func decodeStrict(body []byte, v any) error {
	if err := strictjson.Decode(body, v); err != nil {
		return problem(http.StatusBadRequest, "malformed_json", err.Error())
	}
	return nil
}
