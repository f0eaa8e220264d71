package service

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"paiju/domain/table"
	"paiju/eventstore"
)

// Observer is told what the service does, for metrics. Its methods are
// called on the command path and must return at once (no I/O).
type Observer interface {
	// Command reports one command: the game, the kind of command (open,
	// join, act for a player's action; timeout and bot for the server's),
	// its outcome ("ok" or the error code the caller saw) and how long it
	// took from load to append.
	Command(game, kind, outcome string, took time.Duration)
	// CacheLookup reports whether a table was served from the folded cache
	// (hit) or had to read the store (miss).
	CacheLookup(hit bool)
}

type noObserver struct{}

func (noObserver) Command(string, string, string, time.Duration) {}
func (noObserver) CacheLookup(bool)                              {}

// Kinds of command, as Observer.Command reports them.
const (
	KindOpen    = "open"
	KindJoin    = "join"
	KindAct     = "act"
	KindTimeout = "timeout"
	KindBot     = "bot"
	KindWatch   = "watch"
)

// Outcome is the label a command's result gets in metrics: "ok", the stable
// code of a domain error, or a short name for the service's own errors.
// Anything else is "error": metrics labels must stay few.
func Outcome(err error) string {
	var de *table.Error
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &de):
		return de.Code
	case errors.Is(err, ErrStale):
		return "precondition_failed"
	case errors.Is(err, ErrKeyReused):
		return "idempotency_key_reused"
	case errors.Is(err, eventstore.ErrConflict):
		return "conflict"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return "error"
}

// span starts a span when the service has a tracer; without one it costs a
// nil check, so tracing is free when it is off.
func (s *Service) span(ctx context.Context, name string, attrs ...attribute.KeyValue) (context.Context, func(error)) {
	if s.cfg.Tracer == nil {
		return ctx, func(error) {}
	}
	ctx, sp := s.cfg.Tracer.Start(ctx, name, trace.WithAttributes(attrs...))
	return ctx, func(err error) {
		if err != nil {
			sp.RecordError(err)
			sp.SetStatus(codes.Error, Outcome(err))
		}
		sp.End()
	}
}
