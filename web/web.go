// Package web serves the embedded web app: a lobby, a table page to play
// and watch, a hand replay and an offline verifier. The app is plain ES
// modules, no build step; every page is index.html, which routes by path.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
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
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".txt":         "text/plain; charset=utf-8",
}

// file is one embedded file with its validator.
type file struct {
	body  []byte
	ctype string
	etag  string
}

// Handler serves the app. Files live under /static/; index.html also
// answers the app's own paths (Routes), where the browser-side router
// takes over; the service worker is answered at /sw.js.
type Handler struct {
	files map[string]file // by URL path, "/static/...", and "/sw.js"
}

// workerSource is the service worker's file; workerPath is where it is
// served: at the root, so that its scope is the whole app.
const (
	workerSource = "/static/js/sw.js"
	workerPath   = "/sw.js"
)

func newFile(body []byte, ctype string) file {
	sum := sha256.Sum256(body)
	return file{body: body, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
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
		h.files["/"+p] = newFile(body, ctype)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, ok := h.files["/static/index.html"]; !ok {
		return nil, fmt.Errorf("web: static/index.html is missing")
	}
	worker, ok := h.files[workerSource]
	if !ok {
		return nil, fmt.Errorf("web: static%s is missing", strings.TrimPrefix(workerSource, "/static"))
	}
	h.files[workerPath] = newFile(append(precacheLine(h.files), worker.body...), worker.ctype)
	return h, nil
}

// precacheLine is the service worker's first line: the files it keeps for
// offline use (the app at "/" and every file under /static/ but the
// worker's own source) and a version, the hash of their ETags, that
// changes with any of them, so that a browser installs the new worker.
func precacheLine(files map[string]file) []byte {
	list := []string{"/"}
	for p := range files {
		if p != workerSource && p != "/static/index.html" {
			list = append(list, p)
		}
	}
	sort.Strings(list)
	v := sha256.New()
	for _, p := range list {
		f := files[p]
		if p == "/" {
			f = files["/static/index.html"]
		}
		fmt.Fprintf(v, "%s %s\n", p, f.etag)
	}
	b, err := json.Marshal(struct {
		Version string   `json:"version"`
		Files   []string `json:"files"`
	}{hex.EncodeToString(v.Sum(nil)[:8]), list})
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	return []byte("self.PAIJU_PRECACHE = " + string(b) + ";\n")
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
