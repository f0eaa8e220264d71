package shengji

import "paiju/domain/table"

// untyped is r as the table uses it: what Game.Rules returns.
func (r *Rules) untyped() table.Rules { return table.Adapt[*State](r) }
