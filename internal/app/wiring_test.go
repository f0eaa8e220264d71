package app

import "paiju/eventstore/eventstoretest"

// Both stores are full stores: the conformance suite's interface is what
// the commands use.
var _ eventstoretest.FullStore = logStore(nil)
