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

// readBody reads a JSON request body: the right content type, at most maxBody
// bytes, valid UTF-8. An empty body is returned as "{}" when allowEmpty.
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
	if len(bytes.TrimSpace(body)) == 0 {
		if allowEmpty {
			return []byte("{}"), nil
		}
		return nil, problem(http.StatusBadRequest, "malformed_json", "the request body is empty; send a JSON object")
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return nil, problem(http.StatusUnsupportedMediaType, "unsupported_media_type", "send the body as application/json")
		}
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
