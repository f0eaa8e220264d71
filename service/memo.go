package service

import (
	"sync"
)

// MaxMemo bounds how many values one snapshot keeps (Loaded.Memo): past it,
// a value is made for its caller and not kept.
const MaxMemo = 32

// memo holds values derived from a snapshot. A snapshot never changes, so a
// value derived from it is the same for every reader holding it, and is
// dropped with it when the table moves on and nothing holds it any more.
type memo struct {
	mu   sync.Mutex
	vals map[any]*memoVal
}

type memoVal struct {
	once sync.Once
	v    any
}

// Memo returns the value l keeps under key, making it with mk the first
// time: the readers of a table at one version (every live stream of it on
// this node, say) derive it once between them. A caller asking while
// another makes it waits for that value. mk must depend only on l and on
// what key names, and key must be comparable (a type private to the caller
// keeps callers apart). Past MaxMemo keys, mk's value is returned unkept.
func (l *Loaded) Memo(key any, mk func() any) any {
	m := l.memo.Load()
	if m == nil {
		l.memo.CompareAndSwap(nil, &memo{vals: make(map[any]*memoVal)})
		m = l.memo.Load()
	}
	m.mu.Lock()
	e, ok := m.vals[key]
	if !ok {
		if len(m.vals) >= MaxMemo {
			m.mu.Unlock()
			return mk()
		}
		e = &memoVal{}
		m.vals[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.v = mk() })
	return e.v
}
