// Package loadtest is the HTTP load client of paiju (paiju loadtest). It
// registers players, opens tables and plays random legal moves against a
// running server, or against every node of a cluster in turn, and measures
// what a player would see: acknowledged moves per second, the latency of
// each move (retries on another node included), the requests each move
// took (/legal answers revalidated with 304, /legal asked of a seat that
// was not to act), the live streams a client per seat opened, and, read
// from each server's /metrics before and after the run, the server CPU per
// move. Every acknowledged move can be recorded (Ack) for checking
// afterwards that the store holds it, once, where the answer said.
//
// It imports nothing of the server, only the standard library: it speaks
// to the server through its HTTP API alone, so that it measures the server
// from outside, as a client would, and cannot lean on the server's own
// types or code paths.
package loadtest
