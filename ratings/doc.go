// Package ratings is the skill model of paiju's rating boards: a Bayesian
// rating (mu, sigma) per player, game family and variant, updated by every
// settled hand the player played. It is pure: no I/O, no goroutines, no global
// state; the projection that stores ratings and the verifier that recomputes
// them both call it.
//
// # Model
//
// Weng and Lin's Bayesian approximation with the Plackett–Luce likelihood
// (R. C. Weng and C.-J. Lin, "A Bayesian Approximation Method for Online
// Ranking", JMLR 12 (2011), Algorithm 4 with the PL model), the model
// OpenSkill implements. It was chosen over Elo and Glicko-2 because our
// contests are not duels: 斗地主 is one against two, 升级 and 双扣 two against
// two, 打盾 two against two or one against three with a partner known only
// during play, and 牛牛 a banker against each player. The PL model rates teams
// of unequal size and any number of sides, handles ties, needs one pass over
// the teams (O(n²) in the number of teams, here at most 4), has a closed form
// (no iteration that could stop at a different step on another machine), and
// is published with open reference implementations (openskill.js,
// openskill.py) whose test vectors this package's tests reproduce
// (testdata/openskill.json). No Go module of it is available here, so it is
// implemented from the paper.
//
// # Parameters
//
// Default uses the paper's and OpenSkill's mu 25, sigma 25/3, beta 25/6 and
// kappa 1e-4. Inactivity widens a rating: sigma² grows by Tau² per whole day
// without a rated hand (Tau 0.25), never past the initial sigma. A player who
// settled near sigma 1.5 and stops playing is provisional again after about
// ten months (288 days) and back to a newcomer's uncertainty after about
// three years; a regular who plays 20 hands a day settles near sigma 1.2 (2
// a day, near 1.9), so that a rating can still follow a player who improves. (OpenSkill's tau
// widens sigma before every game instead; a per-day rule keeps the rating of
// a player who plays many hands a day from depending on how many.) A rating
// is provisional while sigma > ProvisionalSigma (4.5, a little over half the
// initial sigma, as Lichess marks a rating provisional well below its initial
// deviation): a newcomer at a table of established players passes it after
// 15 to 30 hands (TestProvisionalAfter measures it).
//
// Bots are never rated. A bot seat (a bot, or a seat the bot played for the
// whole hand) plays every contest at a fixed nominal rating, BotMu 25 and
// BotSigma 25/12: a new player's mean, so that beating bots is worth what
// beating an average newcomer is, and a small fixed deviation, so that a bot
// partner neither claims certainty nor takes most of a team's update away from
// the human beside it. Its result is discarded.
//
// # Determinism
//
// A rating is a pure function of the log. Every operation is IEEE-754 binary64
// addition, subtraction, multiplication, division, math.Sqrt (correctly
// rounded on every platform) and this package's own exp (exp.go: the
// fdlibm algorithm written with the four operations and an exact power-of-two
// scaling), never math.Exp, whose amd64 assembly takes a fused multiply-add
// path on CPUs that have one. Every product that feeds a sum is rounded by an
// explicit float64 conversion, which the Go specification guarantees keeps the
// compiler from fusing it. The order of every sum is fixed: see Model.Rate
// and Model.Hand, and docs/AUDIT.md (Ratings). A verifier in another language
// must follow the same order and must not use its platform's exp (JavaScript's
// Math.exp is not specified to the last bit): it ports exp.go.
package ratings
