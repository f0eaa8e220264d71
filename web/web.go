// Package web serves the embedded web app: a lobby, a table page to play
// and watch, a hand replay and an offline verifier. The app is plain ES
// modules, no build step; every page is index.html, which routes by path.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed static
var static embed.FS

// Policy is the Content-Security-Policy of every response: the app loads
// and calls only its own origin, runs no inline script, and may not be
// framed, so that a page can make no request elsewhere.
const Policy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// types are the Content-Types of the files the app holds, fixed here rather
// than read from the machine's mime tables, which differ between systems.
var types = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
}

// file is one embedded file with its validator.
type file struct {
	body  []byte
	ctype string
	etag  string
}

// Handler serves the app. Files live under /static/; index.html also
// answers the app's own paths (Routes), where the browser-side router
// takes over.
type Handler struct {
	files map[string]file // by URL path, "/static/..."
}

// New returns the handler of the embedded app.
func New() (*Handler, error) {
	h := &Handler{files: map[string]file{}}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ctype, ok := types[path.Ext(p)]
		if !ok {
			return fmt.Errorf("web: %s: no Content-Type for its extension", p)
		}
		body, err := static.ReadFile(p)
		if err != nil {
			return fmt.Errorf("web: read %s: %w", p, err)
		}
		sum := sha256.Sum256(body)
		h.files["/"+p] = file{body: body, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, ok := h.files["/static/index.html"]; !ok {
		return nil, fmt.Errorf("web: static/index.html is missing")
	}
	return h, nil
}

// IsAppPath reports whether p is a page of the app, answered with
// index.html: /, /tables/{id}, /hands/{handID}, /verify, /leaderboards[/{game}],
// /tournaments[/...], /join (a private table's share link) and /me (the
// player's account).
func IsAppPath(p string) bool {
	switch p {
	case "/", "/verify", "/leaderboards", "/tournaments", "/join", "/me":
		return true
	}
	for _, prefix := range []string{"/tables/", "/hands/", "/leaderboards/"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			return rest != "" && !strings.Contains(rest, "/")
		}
	}
	rest, ok := strings.CutPrefix(p, "/tournaments/")
	return ok && rest != ""
}

// ServeHTTP answers GET and HEAD of the app's files and pages; anything
// else is 404 (or 405 for another method on a page).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	f, ok := h.files[p]
	if !ok && IsAppPath(p) {
		f, ok = h.files["/static/index.html"]
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("Content-Security-Policy", Policy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	hd.Set("Content-Type", f.ctype)
	hd.Set("ETag", f.etag)
	// The files have no versioned names: a browser revalidates each use,
	// and an unchanged file costs a 304.
	hd.Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}
