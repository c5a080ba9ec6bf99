package main

import (
	"context"
	"log/slog"
)

// FerretDB derives a logger with attributes for every connection and command
// (Logger.With), and slog's TextHandler formats those attributes as soon as they are
// added, whatever the level: a visible share of the launcher's CPU in profiles of qrelay's
// simulation, for log lines that the default level (error) never writes. This handler keeps what With and
// WithGroup add and applies it only to a record that is actually written.
type lazyHandler struct {
	base slog.Handler
	ops  []func(slog.Handler) slog.Handler
}

func (h *lazyHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.base.Enabled(ctx, level)
}

func (h *lazyHandler) Handle(ctx context.Context, r slog.Record) error {
	handler := h.base
	for _, op := range h.ops {
		handler = op(handler)
	}
	return handler.Handle(ctx, r)
}

func (h *lazyHandler) with(op func(slog.Handler) slog.Handler) *lazyHandler {
	ops := make([]func(slog.Handler) slog.Handler, len(h.ops), len(h.ops)+1)
	copy(ops, h.ops)
	return &lazyHandler{base: h.base, ops: append(ops, op)}
}

func (h *lazyHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.with(func(next slog.Handler) slog.Handler { return next.WithAttrs(attrs) })
}

func (h *lazyHandler) WithGroup(name string) slog.Handler {
	return h.with(func(next slog.Handler) slog.Handler { return next.WithGroup(name) })
}
