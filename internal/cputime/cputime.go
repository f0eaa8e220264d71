// Package cputime reads the CPU time the process has used, for benchmarks
// on a machine others share: ns/op counts the time an op waits for a core
// as well, the CPU time an op does not. The whole process counts (the
// embedded SQLite, nats-server and the HTTP stack alike, since all of them
// run in the process).
package cputime

import "syscall"

// Now is the CPU time (user + system) the process has used so far, in
// nanoseconds; 0 if the system does not say. Subtract two readings for the
// CPU time in between.
func Now() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
