package gametest

import (
	"math/rand/v2"

	"paiju/domain/table"
)

// Player chooses a seat's action from its legal actions (escape excluded),
// for tests that drive whole hands seat by seat.
type Player func(st *table.State, seat int, legal []table.Action) table.Action

// RandomPlayer picks uniformly among the legal actions.
func RandomPlayer(rng *rand.Rand) Player {
	return func(_ *table.State, _ int, legal []table.Action) table.Action {
		return legal[rng.IntN(len(legal))]
	}
}

// TimeoutPlayer plays as the turn clock would: the game's default action.
func TimeoutPlayer(st *table.State, seat int, _ []table.Action) table.Action {
	return st.Rules.(table.Autoplay).TimeoutAction(st.G, seat)
}

// BotPlayer plays as the game's bot, from the seat's view only.
func BotPlayer(st *table.State, seat int, legal []table.Action) table.Action {
	return st.Rules.(table.Autoplay).BotAction(st.Rules.View(st.G, seat), legal)
}
