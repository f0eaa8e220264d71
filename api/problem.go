package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5/middleware"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/service"
)

// Problem is an RFC 9457 problem details object with paiju's stable code.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
	Code   string `json:"code"`
	// Option names the table option an invalid_option refuses, when one
	// key is at fault.
	Option string `json:"option,omitempty"`
	// RequestID is the request's X-Request-Id, to quote to an operator.
	RequestID string `json:"request_id,omitempty"`
	// retryAfter, when set, is sent as Retry-After.
	retryAfter time.Duration
}

func problem(status int, code, detail string) *Problem {
	return &Problem{
		Type:   "urn:paiju:problem:" + code,
		Title:  http.StatusText(status),
		Status: status,
		Detail: detail,
		Code:   code,
	}
}

func (p *Problem) Error() string { return p.Code + ": " + p.Detail }

// kindStatus is the only place domain error kinds meet HTTP statuses.
var kindStatus = map[table.Kind]int{
	table.KindInvalid:   http.StatusUnprocessableEntity,
	table.KindRule:      http.StatusUnprocessableEntity,
	table.KindConflict:  http.StatusConflict,
	table.KindForbidden: http.StatusForbidden,
	table.KindNotFound:  http.StatusNotFound,
}

// toProblem maps an error to the problem the caller sees. Errors that are not
// the caller's fault become a bare 500; their detail goes to the log only.
func toProblem(err error) (*Problem, bool) {
	var p *Problem
	if errors.As(err, &p) {
		return p, true
	}
	var de *table.Error
	if errors.As(err, &de) {
		if status, ok := kindStatus[de.Kind]; ok {
			p := problem(status, de.Code, de.Msg)
			p.Option = de.Option
			return p, true
		}
	}
	var pe *cards.ParseError
	if errors.As(err, &pe) {
		return problem(http.StatusBadRequest, "invalid_card", pe.Error()), true
	}
	switch {
	case errors.Is(err, service.ErrStale):
		return problem(http.StatusPreconditionFailed, "precondition_failed", "the table has changed since the version in If-Match; reload it and try again"), true
	case errors.Is(err, service.ErrRequestInProgress):
		return problem(http.StatusConflict, "request_in_progress", "a request with this Idempotency-Key is still being processed; retry it after the time in Retry-After to get its answer"), true
	case errors.Is(err, service.ErrKeyReused):
		return problem(http.StatusUnprocessableEntity, "idempotency_key_reused", "this Idempotency-Key was already used with a different request"), true
	}
	return problem(http.StatusInternalServerError, "internal_error", "internal error"), false
}

func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	ctx := r.Context()
	if ctx.Err() != nil && errors.Is(context.Cause(ctx), errRequestTimeout) {
		// Whatever failed, it failed because the time ran out: the store or
		// the bus did not answer in time.
		s.log.WarnContext(ctx, "request timed out", slog.String("request_id", middleware.GetReqID(ctx)),
			slog.String("method", r.Method), slog.String("route", routeOf(r)), slog.Duration("after", s.RequestTimeout), slog.Any("err", err))
		err = timedOut(r, s.RequestTimeout)
	}
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		// The client went away: nobody reads an answer, and it is no
		// fault of the server's.
		infoOf(ctx).canceled = true
		s.log.DebugContext(ctx, "client went away", slog.String("request_id", middleware.GetReqID(ctx)),
			slog.String("method", r.Method), slog.String("route", routeOf(r)), slog.Any("err", err))
		return
	}
	p, known := toProblem(err)
	id := middleware.GetReqID(ctx)
	if !known {
		s.log.ErrorContext(ctx, "request failed", slog.String("request_id", id), slog.String("method", r.Method),
			slog.String("route", routeOf(r)), slog.Any("err", err))
	}
	if p.Code == "request_in_progress" {
		w.Header().Set("Retry-After", "1")
	}
	if p.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(p.retryAfter.Seconds())))))
	}
	if p.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="paiju"`)
	}
	// A copy: toProblem may hand back a *Problem that other requests share.
	out := *p
	out.RequestID = id
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(&out)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
