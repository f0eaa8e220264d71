// Package climb holds what the climbing games (斗地主, 乐安打盾, 百变双扣)
// share: the rank order 3 … K A 2 BJ RJ in which singles compare and
// sequences run, the display order of cards, rank counts, the choice of the
// reading that beats (Pick), the names of combination types, and the turn
// order among the seats that still hold cards (接风). Each game keeps its own
// combinations and how they beat one another; only what is the same logic
// lives here, so that one change cannot leave one game behind.
package climb
