// Package games is the registry of every game this build serves. It is built
// explicitly: adding a game is one package and one line here.
package games

import (
	"paiju/domain/dadun"
	"paiju/domain/doudizhu"
	"paiju/domain/niuniu"
	"paiju/domain/shengji"
	"paiju/domain/shuangkou"
	"paiju/domain/table"
)

// All returns the registry of every game.
func All() table.Registry {
	reg := table.Registry{}
	for _, g := range []table.Game{
		doudizhu.New(),
		niuniu.New(),
		shuangkou.New(),
		shengji.New(),
		dadun.New(),
	} {
		reg[g.Name()] = g
	}
	return reg
}
