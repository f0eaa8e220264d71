// Package domain holds paiju's pure game logic in its subpackages: cards,
// the table aggregate and one package per game family. Nothing under domain
// performs I/O, reads a clock or draws global randomness.
package domain
