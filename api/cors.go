package api

import (
	"net/http"

	"github.com/go-chi/cors"
)

// corsMaxAge is how long a browser may reuse a preflight's answer, in
// seconds (browsers cap it at 2 hours).
const corsMaxAge = 600

// corsPolicy lets web apps served from origins call the API from a browser:
// the headers the API reads may be sent, and the ones it answers with read.
// Tokens travel in Authorization, never in cookies, so no credentials are
// allowed. Without origins there is no CORS at all: no Access-Control-*
// header, and a preflight is an ordinary OPTIONS (405).
func corsPolicy(origins []string) func(http.Handler) http.Handler {
	if len(origins) == 0 {
		return func(next http.Handler) http.Handler { return next }
	}
	c := cors.Handler(cors.Options{
		AllowedOrigins: origins,
		AllowedMethods: []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPatch, http.MethodDelete},
		AllowedHeaders: []string{"Authorization", "Content-Type", "If-Match", "If-None-Match",
			"Idempotency-Key", "Prefer", "Last-Event-ID", RequestIDHeader, roomCodeHeader},
		ExposedHeaders: []string{"ETag", "Location", "RateLimit", "RateLimit-Policy", "Retry-After",
			"Idempotent-Replayed", "Preference-Applied", "Awaited-Seats", RequestIDHeader},
		MaxAge: corsMaxAge,
		// go-chi/cors answers a preflight 200 itself; passed through, it is
		// answered 204 below, as a body-less success should be.
		OptionsPassthrough: true,
	})
	return func(next http.Handler) http.Handler {
		return c(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				w.WriteHeader(http.StatusNoContent)
				return
			}
			next.ServeHTTP(w, r)
		}))
	}
}
