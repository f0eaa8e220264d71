package main

import (
	"os"
	"testing"

	"go.yaml.in/yaml/v4"
)

// TestOpenAPINoDuplicateKeys: a YAML mapping with a key twice is invalid
// (YAML 1.2, 3.2.1.1) and refused by linters and some clients, but the
// OpenAPI loader the API tests use keeps the last value silently; two
// changes adding the same response code to a route made exactly that.
func TestOpenAPINoDuplicateKeys(t *testing.T) {
	b, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
}
