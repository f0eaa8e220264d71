package apitest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// docURL names the OpenAPI document inside the schema compiler; it is never
// fetched.
const docURL = "https://paiju.invalid/openapi.json"

// bodies validates request and response bodies against the document's
// schemas with JSON Schema 2020-12, the dialect of OpenAPI 3.1: type arrays
// with "null", const, oneOf by discriminated const and the rest are enforced
// as a 3.1 client reads them. Each schema is compiled once and kept, since a
// test run validates thousands of bodies against the same few schemas and
// compiling the per-game unions takes far longer than checking a body.
type bodies struct {
	doc      any // the document as JSON, to follow response $refs
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema
}

func newBodies(doc *openapi3.T) (*bodies, error) {
	if !doc.IsOpenAPI31OrLater() {
		return nil, fmt.Errorf("openapi.yaml is OpenAPI %s; its schemas are read as OpenAPI 3.1 (JSON Schema 2020-12)", doc.OpenAPI)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("encode openapi.yaml as JSON: %w", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("decode openapi.yaml as JSON: %w", err)
	}
	dispatchDiscriminators(v)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(docURL, v); err != nil {
		return nil, fmt.Errorf("add openapi.yaml to the schema compiler: %w", err)
	}
	return &bodies{doc: v, compiler: c, compiled: map[string]*jsonschema.Schema{}}, nil
}

// schemaAt compiles (once) the schema at a JSON pointer into the document.
func (b *bodies) schemaAt(ptr string) (*jsonschema.Schema, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s, ok := b.compiled[ptr]; ok {
		return s, nil
	}
	frag := ""
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		frag += "/" + url.PathEscape(tok)
	}
	s, err := b.compiler.Compile(docURL + "#" + frag)
	if err != nil {
		return nil, fmt.Errorf("compile the schema at %s: %w", ptr, err)
	}
	b.compiled[ptr] = s
	return s, nil
}

// Schema validates a JSON value against a named component schema
// (components/schemas/<name>), for what arrives outside a response body
// (the events of a live stream).
func (b *bodies) Schema(name string, data []byte) error {
	s, err := b.schemaAt("/components/schemas/" + escape(name))
	if err != nil {
		return err
	}
	v, err := decodeJSON(data)
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return s.Validate(v)
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// locate walks the document from the pointer tokens, following the $ref of
// any object it passes through (a response or request body defined in
// components), and returns the pointer it ends at; ok is false when the
// document has nothing there.
func (b *bodies) locate(tokens ...string) (ptr string, ok bool) {
	node := b.doc
	for _, tok := range tokens {
		if m, isMap := node.(map[string]any); isMap {
			if ref, isRef := m["$ref"].(string); isRef && strings.HasPrefix(ref, "#/") {
				ptr = strings.TrimPrefix(ref, "#")
				node = b.at(ptr)
				m, _ = node.(map[string]any)
			}
			next, found := m[tok]
			if !found {
				return "", false
			}
			ptr += "/" + escape(tok)
			node = next
			continue
		}
		return "", false
	}
	return ptr, true
}

// at is the node at a pointer the document is known to hold.
func (b *bodies) at(ptr string) any {
	node := b.doc
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, _ := node.(map[string]any)
		node = m[tok]
	}
	return node
}

// check validates a body sent with content type ct against the schema the
// document gives it under the pointer tokens (…/content). A body the
// document gives no content for must be empty.
func (b *bodies) check(body []byte, ct string, content ...string) error {
	if len(body) == 0 {
		return nil
	}
	media, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return fmt.Errorf("content type %q: %w", ct, err)
	}
	if _, ok := b.locate(content...); !ok {
		return fmt.Errorf("a body (%s) where the document describes none", media)
	}
	ptr, ok := b.locate(append(content, media, "schema")...)
	if !ok {
		return fmt.Errorf("content type %s is not one the document lists here", media)
	}
	s, err := b.schemaAt(ptr)
	if err != nil {
		return err
	}
	var v any
	switch media {
	case "application/x-ndjson":
		// An export: each line is one item of the array the schema describes.
		var lines []any
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(make([]byte, 64<<10), 8<<20)
		for sc.Scan() {
			line, err := decodeJSON(sc.Bytes())
			if err != nil {
				return fmt.Errorf("line %d: %w", len(lines)+1, err)
			}
			lines = append(lines, line)
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("read the lines: %w", err)
		}
		v = lines
	case "text/event-stream", "text/plain":
		v = string(body)
	default:
		if v, err = decodeJSON(body); err != nil {
			return fmt.Errorf("not JSON: %w", err)
		}
	}
	if err := s.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return fmt.Errorf("%s: %v", ptr, ve)
		}
		return err
	}
	return nil
}

// dispatchDiscriminators rewrites, in the document as the validator reads it,
// every oneOf that carries a discriminator with a mapping into the same
// constraint stated as if/then: the discriminating property is required and
// one of the mapping's values, and its value selects the one schema that
// applies. That is what a discriminator means in OpenAPI, and it accepts and
// refuses exactly the bodies the oneOf does when each branch fixes its own
// value; but a validator reading the oneOf must try every branch of every
// value (an event feed is dozens of events, each tried against the whole
// union of event types), where if/then checks one constant per branch and
// validates a single schema.
func dispatchDiscriminators(node any) {
	switch n := node.(type) {
	case []any:
		for _, e := range n {
			dispatchDiscriminators(e)
		}
	case map[string]any:
		for _, e := range n {
			dispatchDiscriminators(e)
		}
		d, ok := n["discriminator"].(map[string]any)
		if !ok {
			return
		}
		prop, _ := d["propertyName"].(string)
		mapping, _ := d["mapping"].(map[string]any)
		branches, _ := n["oneOf"].([]any)
		if prop == "" || len(mapping) == 0 || len(branches) != len(mapping) {
			return
		}
		refs := map[string]bool{}
		for _, b := range branches {
			m, _ := b.(map[string]any)
			ref, _ := m["$ref"].(string)
			if len(m) != 1 || ref == "" {
				return
			}
			refs[ref] = true
		}
		values := make([]string, 0, len(mapping))
		for v, r := range mapping {
			ref, _ := r.(string)
			if !refs[ref] {
				return
			}
			values = append(values, v)
		}
		slices.Sort(values)
		enum := make([]any, len(values))
		allOf, _ := n["allOf"].([]any)
		for i, v := range values {
			enum[i] = v
			allOf = append(allOf, map[string]any{
				"if":   map[string]any{"properties": map[string]any{prop: map[string]any{"const": v}}},
				"then": map[string]any{"$ref": mapping[v]},
			})
		}
		allOf = append(allOf, map[string]any{"required": []any{prop}, "properties": map[string]any{prop: map[string]any{"enum": enum}}})
		n["allOf"] = allOf
		delete(n, "oneOf")
	}
}

// decodeJSON decodes a body for validation. Numbers become float64, which
// the validator checks for integers cheaply (the exact json.Number form
// costs a big.Rat per number, and a feed is thousands of them); every
// number paiju sends is an integer well below 2^53 or a stake ratio, so
// nothing is lost.
func decodeJSON(data []byte) (any, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}
