// Package climb holds what the climbing games (斗地主, 乐安打盾, 百变双扣)
// share: the rank order 3 … K A 2 BJ RJ in which singles compare and
// sequences run, the display order of cards, and rank counts. Each game keeps
// its own combinations; only the order and the bookkeeping under them live
// here, so that one change of the order cannot leave one game behind.
package climb
