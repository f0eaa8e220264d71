// Package testclock is a clock tests move by hand, for the service
// (service.Clock) and the store (sqlite.Options.Now) alike, so that deadlines
// counted from recorded times and the service's reading agree.
package testclock

import (
	"sync"
	"time"
)

// Clock stands still until Advance moves it. It is safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New returns a clock reading at.
func New(at time.Time) *Clock { return &Clock{now: at} }

// Now returns the clock's reading.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
