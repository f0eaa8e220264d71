// Package dadun is 乐安打盾 (Le'an Dadun, "find a friend") as a table.Game: the
// rules of rules/dadun.md in the design documents (seed 001), variant "lean"
// (rules version "dadun/lean/2"; see Rules versions). Four seats, two decks, no kitty; the
// banker and a hidden friend against the other two, or one seat alone
// against three (打独). Ranks, the card order and rank counts come from
// package climb, which the climbing games share.
//
// # Rules versions
//
// A table replays under the rules version it was opened with (Game.RulesAt;
// docs/OPERATIONS.md, Rules versions). dadun/lean/1 is the current rules
// with three behaviours switched back on by fields of its variant, set only
// for /1; dadun/lean/2 changed them (dadun.md, 盾 awards revised Decision,
// and Rulings):
//
//   - 盾 awards stack in /2: a bomb earns 1 more for each 四红 and each 四黑,
//     whatever its size (a 7-card bomb 5, an 8-card bomb 8). In /1
//     (unstackedAwards) a bomb of 4 to 6 cards with four of a colour earned
//     1 more, once, and a 7- or 8-card bomb 4 or 6.
//   - In /2 last cards short of kickers follow a full trio or trio run. In
//     /1 (sameKickersToFollow) a trio or trio run followed only one with as
//     many kickers.
//   - In /2 打独 ends when anyone is out. In /1 (soloPlaysOn) it ended when
//     the soloist or all three opponents were out.
//
// Two 510K sets played together are refused under both; /2 named the
// refusal two_510k_sets, and /1 names it so too: a refusal records nothing,
// so no stream depends on its code.
//
// # Table options
//
// The house rules of dadun.md, Table options, are fields of the variant
// (variant.opts) that every rules version reads; the defaults are the rules
// before them, and TableOpened records only the keys set otherwise
// (options.go):
//
//   - bomb_order "seed" | "high": the order of the special combinations
//     (variant.power); "high" puts plain < pure 510K < multi-510K above
//     every bomb, below the joker bombs.
//   - pure_suits "tie" | "suit": pure 510Ks rank ♠ > ♥ > ♣ > ♦; the suit is
//     not in the recorded reading but in the played cards (variant.refine).
//   - joker_bombs 3 | 2: two jokers are a bomb (BJ RJ < BJ BJ < RJ RJ, just
//     below the 3-joker bomb), no pair; Legal names them "joker_bomb".
//   - dun_awards true | false: false earns no 盾 award.
//   - lead_after_out "next" | "partner": 接风 to the partner of the seat out
//     once the sides are public; the next seat while the friend is hidden.
//
// # Dealing (auditors re-implement this)
//
// A deal of hand h from the 32-byte seed:
//
//  1. deck, stream := cards.Shuffled(seed, 2): the 108 cards in canonical
//     order (deck 1: ♠2..♠A, ♥2..♥A, ♣2..♣A, ♦2..♦A, BJ, RJ; then deck 2)
//     shuffled by Fisher–Yates driven by the seed's SHA-256 counter stream
//     (see package cards).
//  2. Card i of the shuffled deck goes to seat i mod 4: 27 cards each, no
//     kitty.
//  3. The turned card (翻牌): at := stream.Below(108), the next draw after
//     the shuffle. The turned card is deck[at], and the banker is the seat
//     dealt that position, at mod 4. (Turning a card "before the deal" and
//     dealing it is the same as drawing a position of the dealt deck.)
//     Nothing else is drawn from the stream.
//  4. HandDealt records the commitment SHA-256(seed), each seat's cards in
//     display order (climb.Sort), an empty kitty, and the banker as
//     FirstSeat. DealSecret follows, then the public CardTurned.
//
// # Sides
//
// The friend is the holder of the other copy of the turned card. When the
// banker holds both copies, the banker either goes alone or calls another
// card it holds exactly one copy of (a hand of 27 always has one), and the
// holder of that card's other copy is the friend. The friend's seat is
// known to the friend alone (from its own cards) until it plays the friend
// card: FriendRevealed follows that CardsPlayed, and the sides are public
// from then on. The banker playing its own copy reveals nothing. No event
// names the friend before FriendRevealed, so Redact has nothing to hide
// beyond what the table hides (the hands in HandDealt, the seed).
//
// # Events
//
// Besides the table's events (HandDealt, DealSecret, HandSettled,
// PlayerEscaped) the game emits these, JSON as shown; cards use the card
// notation, ranks and combinations are written by name:
//
//	CardTurned     {"hand":1,"deal":1,"card":"H10","banker":2}          follows DealSecret
//	FriendCalled   {"seat":2,"card":"SA"}                               the banker holding both copies calls
//	AloneDeclared  {"seat":3}                                           打独: seat 3 plays 1 vs 3 and leads
//	AloneDeclined  {"seat":3}                                           after the fourth, the banker leads
//	CardsPlayed    {"seat":0,"cards":["H7","H7","D7","D7"],"reading":{"type":"bomb","main":"7","length":4},"awards":1}
//	FriendRevealed {"seat":2,"card":"H10"}                              follows the friend's CardsPlayed
//	PlayPassed     {"seat":1}
//	PlayerOut      {"seat":0,"place":1}                                 follows the play of a seat's last cards
//	TrickEnded     {"winner":0,"points":25,"leader":1,"jiefeng":true}   follows the PlayPassed that ends a trick
//
// A reading's "type" is one of single, pair, pair_run, trio (三带二 and,
// as the last cards, a bare trio or trio + one), trio_run, straight,
// plain_510k, pure_510k, multi_510k, bomb, joker_bomb. "main" is the rank of
// a single, pair, trio or bomb, the top rank of a run, K for a 510K and RJ
// for a joker bomb; "length" is the ranks of a run, the cards of a bomb or
// joker bomb, the sets of a multi-510K, and 1 otherwise; "kickers" (trio and
// trio_run only) counts the kicker cards. "awards" is the 盾 awards the play
// earned, absent when none.
//
// A hand ends with HandSettled whose result is a Result: "end"
// ("played_out" or "escape"), "outcome" (shuangying, points, tie,
// alone_won, alone_lost), "turned", "banker", "friend_card" and "friend" (or
// "soloist"), "sides" (the banker's or the soloist's first), "finish",
// "captured" (points taken per seat), "last" (the 末游 whose points moved)
// and "points" (per side, after the moves) when points decided, "winners",
// "multiplier", "result_deltas" and "award_deltas" (HandSettled's deltas
// are their sum), "awards" (every play that earned, with seat and cards),
// "cards_left", and for an escape "escaper", "penalty" and "house". It
// reveals the seed.
//
// # Actions
//
//	{"type":"alone"}                    go alone (打独), in the declaring round on one's turn
//	{"type":"pass"}                     decline going alone; in play 不出 (not when leading)
//	{"type":"call","cards":["SA"]}      the banker holding both turned copies names the friend card
//	{"type":"play","cards":["S5","S10","SK"],"as":"pure_510k"}   "as" optional
//	{"type":"escape"}                   handled by the table, settled by the game
//
// The declaring round starts with the banker and goes round once: each seat
// goes alone or passes; a banker holding both copies of the turned card goes
// alone or calls instead of passing, and its call also declines going alone.
// The first to go alone ends the round and leads; after four declines the
// banker leads.
//
// # Reading a play
//
// Classify lists every reading of a set of cards; whether they are the
// player's last cards matters (a bare trio, a trio with one kicker and a
// trio run short of two kickers a trio are allowed only then). A play may
// have several readings: S7 H7 C7 D7 as the last four cards is a bomb or a
// trio + one; 333 444 555 9 is a trio run to 4 or to 5. The client names one
// with "as": "<type>", "<type>:<main>" or "trio_run:<main>:<length>"
// (Reading.Name gives the full name). Without "as" (or with one that
// matches several) the play is read as the reading that outranks the others
// among those that may be played now (Reading.Outranks: the stronger special
// combination, then the higher main rank, then the longer run). The reading
// is recorded in CardsPlayed, and Command names it to the auditor.
//
// # Order of combinations (dadun.md, Combinations Decision)
//
// plain 510K < pure 510K < 4-card bomb < … < 8-card bomb < 3-joker bomb <
// 4-joker bomb; bombs of one size by rank; k ≥ 3 sets of 510K rank as a bomb
// of k+1 cards above every natural bomb of that size (Decision: 8 sets stay
// below the 3-joker bomb; equal multi-510Ks tie). Equal special
// combinations tie, and a tie does not beat. Every special combination
// beats every ordinary one; an ordinary one beats only the same type with
// the same length and number of kickers and a higher main rank, but for the
// last cards (dadun.md, Rulings): a bare trio or trio + one follows a trio +
// two, and a trio run short of kickers a full trio run of as many trios,
// each beating it by rank. A full trio never follows a short one.
//
// Exactly two 510K sets played together are refused with two_510k_sets
// (several sets go out together only three or more at a time), not with
// the generic invalid_combination, so that the player learns why.
//
// # Legal (and how it is bounded)
//
// Legal lists each play once per rank pattern and reading, naming the
// hand's cards of each rank in suit order (♠ ♥ ♣ ♦); Decide accepts the same
// play with any suits. Where suits change a play it lists each outcome: a
// pure and a plain 510K, and a bomb of 4 to 6 cards with and without four
// cards of one colour (its awards differ). Kickers are listed in every rank
// pattern the hand allows, so a lead of a 27-card hand lists about 1,700
// plays on average and up to about 9,000 with trio runs (BenchmarkLegalLead).
// Nothing is capped (TestLegalMatchesDecide).
//
// # Play, points and results
//
// The leader plays any combination; each next seat with cards beats it or
// passes; when every other seat with cards has passed, the last player takes
// the trick's points (5, 10, K) and leads again, or, if that player went out
// with the play, the next seat after it with cards leads (接风). The hand
// ends when both seats of a side are out, or in 打独 as soon as the first
// seat is out: the soloist, who has won, or an opponent, who has made the
// soloist lose (dadun.md, Rulings: the hand ends when its result is
// decided; awards earned stand). The trick the hand ends in goes to the seat
// that ended it (Decision: nobody may answer that play any more).
//
// Results (dadun.md, Points and result), stake units per seat: 双赢 (one
// side out 1st and 2nd) 3 each way, points aside; otherwise the 末游's
// captured points go to the 头游 and the points in its hand to the side
// against it (Decision), and the side with more than 100 wins 2 each (3 with
// all 200), 100 each going to the 头游's side at 2. 打独: the soloist wins
// 4 from each opponent when out first, else pays 4 to each.
//
// 盾 awards (dadun.md, 盾 awards) are counted on the combination of each
// play: a pair of RJ or BJ 1, 3 jokers 3, 4 jokers 6, k ≥ 3 sets of 510K
// k, and a bomb of 4/5/6/7/8 cards 0/1/2/4/6 plus 1 for each 四红 (its rank's
// four red cards) and 1 for each 四黑 (the four black) it holds: the awards
// stack (revised Decision), so a 7-card bomb earns 5 and an 8-card bomb 8.
// Kickers earn nothing (Decision). Each of the other three pays the earner
// awards × stake, apart from the result.
//
// Escape (dadun.md, Escape Decision, as 宁阳刮风): the escaper pays 16 ×
// stake; each other seat receives floor(16 × stake / 3) and the house keeps
// the remainder (HandSettled.House, the house share, so deltas + house = 0),
// as in shengji.md. Awards already earned are
// settled too.
//
// # Views
//
// View's game state shows the turned card and the banker, the friend card
// once known, the viewer's own role ("banker", "friend", "opponent",
// "soloist"), the friend and the sides once public (every seat) or always
// (the auditor) with the points each side took in tricks (side_points),
// the viewer's own partners as far as it may know them (partners: the
// friend knows the banker from its own cards; the others learn theirs only
// when the sides are public; [] for a soloist), the current trick, points
// captured per seat, cards left, finish order and the awards earned.
//
// # Turn clock and bot (table.Autoplay)
//
// Awaited is the seat on turn in the declaring round and the play; no other
// seat ever has a legal action. A seat whose time runs out: in the
// declaring round passes (never goes alone), but a banker holding both
// copies of the turned card, who may not pass, calls its lowest card held
// exactly once (climb.Sort's order); in the play passes when following, and
// when leading plays its lowest card as a single.
//
// The bot reads only its view and legal list: it never goes alone, and a
// banker who must call names its highest card held once. In the play it
// shares the climbing games' policy (climb.Shapes.Choose): shed the hand in
// the fewest plays, lowest first, keeping bombs, joker bombs and 510Ks; it
// lets a partner's winning play stand and stops an opponent with 3 cards or
// fewer. Partners are only what the view shows: the banker, to the friend
// (role friend); both sides once public; the three against the soloist in
// 打独. Before that the banker and the opponents treat every seat as an
// opponent.
package dadun
