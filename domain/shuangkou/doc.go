// Package shuangkou is 百变双扣 (Baibian Shuangkou) as a table.Game: the rules
// of rules/shuangkou.md in the design documents (seed 004). Two variants:
// "baibian", where jokers are wild inside combinations, and "classic", with
// no wilds. Four seats in partnerships (0 & 2 against 1 & 3), two decks.
//
// # Options (house rules, shuangkou.md, Table options)
//
// Every variant takes four optional keys; each default is the game before
// the key existed, and a key at its default is left out of the recorded
// options, so a table without options records {} (rules README, Table
// options). Read with table.ReadOptions; a bad value is invalid_option
// naming the key.
//
//	hands       integer 1 … 1,000,000; absent: hands without end. A match
//	            decided by sides (Decision): after the N-th settled hand
//	            (escapes count) it ends when one side's total, its two
//	            seats' sum, is higher, else after the next hand that breaks
//	            the tie. MatchEnded, then TableClosed {"reason":"match_over"}.
//	wild        "all" | "big" | "none"; default the variant's (baibian all,
//	            classic none). big: only RJ join natural cards as wilds; BJ
//	            play only as themselves (a single, BJ BJ, the joker bomb).
//	bomb_bonus  false | true (相). A bomb's 相 is its card count, jokers
//	            included, the joker bomb 7. The winning side's 相 L is the
//	            largest of its two players' bombs this deal, at least k + 2
//	            when they played k ≥ 3 bombs; a hand played out pays its
//	            result × 2^(L−4) when L ≥ 5. Escapes unchanged.
//	cap         integer 3 … 1,000,000; absent: none. A seat's win or loss in
//	            a hand played out is at most cap × stake (only 相 reaches it).
//
// The lobby and the table view show "wild" and "bomb_bonus" always and
// "hands" and "cap" when set (ShownOptions). The view's Match shows a
// match's hands, hands played and the sides' totals.
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
//  3. The first leader (Decision: shuangkou.md names none): for the table's
//     first deal it is stream.Below(4), the next draw after the shuffle; each
//     later hand moves it to the next seat, (previous + 1) mod 4. Nothing
//     else is ever drawn from the stream.
//  4. HandDealt records the commitment SHA-256(seed), each seat's cards sorted
//     in display order (climb.Sort: 双扣 rank from 3 up to RJ, then ♠ ♥ ♣ ♦), an
//     empty kitty, and the first leader as FirstSeat.
//
// # Events
//
// Besides the table's events (HandDealt, DealSecret, HandSettled,
// PlayerEscaped) the game emits these, JSON as shown; cards use the card
// notation, ranks and combinations are written by name:
//
//	CardsPlayed {"seat":0,"cards":["S7","H7","BJ","RJ"],"reading":{"type":"bomb","main":"7","length":4,"wild":["7","7"]}}
//	PlayPassed  {"seat":1}
//	PlayerOut   {"seat":0,"place":1}                        follows the CardsPlayed of a seat's last cards
//	TrickEnded  {"winner":0,"leader":2,"jiefeng":true}      follows the PlayPassed that ends a trick
//	MatchEnded  {"hands":3,"sides":[{"place":1,"seats":[1,3],"total":8},{"place":2,"seats":[0,2],"total":-8}]}
//	                                                        option "hands": follows the HandSettled ending the match
//
// A reading's "wild" lists, sorted, the ranks the jokers of the play stand
// for; it is absent when the play has no joker or its jokers play as
// themselves. Types: single, pair, trio, pair_run, trio_run, straight, bomb,
// joker_bomb. "main" is the rank of a single, pair, trio or bomb, the top
// rank of a run, and RJ for the joker bomb; "length" is the ranks of a run,
// the cards of a bomb (4 for the joker bomb), and 1 otherwise.
//
// A hand ends with HandSettled whose result is a Result: {"end":
// "played_out"|"escape", "outcome": "shuangkou"|"dankou"|"pingkou",
// "finish" (the seats out, in order), "winners" (the winning side's seats),
// "multiplier", "cards_left", and for an escape "escaper" and "penalty"}.
// Under the option bomb_bonus a hand played out adds "xiang" (the winning
// side's 相, 0 without a bomb) and "bonus" (2^(xiang−4) from 5相, else 1);
// under the option cap, "capped" (the cap) when it cut multiplier × bonus.
// It reveals the seed.
//
// # Actions
//
//	{"type":"play","cards":["S5","S6","S7","BJ","RJ"],"as":"straight:9"}   "as" optional
//	{"type":"pass"}       不出; not when leading
//	{"type":"escape"}     handled by the table, settled by the game
//
// # Reading a play
//
// Classify lists every reading of a multiset of cards. Jokers without any
// natural card play as themselves: a single joker, a pair of the same joker
// (BJ BJ, RJ RJ), or all four as the joker bomb; BJ RJ and three jokers are
// no combination (Decision: the rules file makes jokers wild "inside a
// combination", which we read as a combination with a natural card). In
// baibian, jokers played with natural cards stand for whatever ranks 3 … 2
// complete the combination; in classic such a play is invalid. The option
// "wild" overrides the variant's: with "big" only RJ stand in, and a play of
// BJ with natural cards is invalid.
//
// A play may have several readings: S5 S6 S7 BJ RJ is a straight to 7, 8 or
// 9; S7 H7 + four jokers is a bomb, three pair runs or two trio runs. The
// client names one with "as": "<type>" or "<type>:<main rank>" (e.g.
// "straight:9", "bomb:7", "pair_run:A"); the type, main rank and the number
// of cards fix the reading and so what the jokers stand for. Without "as"
// (or with a bare type matching several) the play is read as the reading that
// outranks the others among those that may be played now (that beat the play
// on the table, or all when leading; Reading.Outranks: the stronger bomb,
// then the higher main rank). The reading is recorded in CardsPlayed, so
// replays never re-derive it, and Command names it in full to the auditor.
//
// # Legal (and how it is bounded)
//
// Legal lists each play once per rank pattern: how many natural cards of
// each rank, and how many BJ and RJ (which joker a wild uses matters: it
// decides what is left in hand). No rule of 双扣 reads a suit, so plays that
// differ only in the suits of natural cards are equivalent; Legal names the
// hand's lowest suits (♠ ♥ ♣ ♦ order) and Decide accepts any suits. Listing
// every choice of suits would multiply a long straight by up to 2^12, and
// with wilds even more; by pattern a lead lists a few hundred plays in
// baibian (BenchmarkLegalLead). A pattern with more than one reading is
// listed once per reading that may be played now, with "as" set to its
// name; a play with a single reading leaves "as" empty. Nothing else is capped: every playable
// pattern under every playable reading is listed (TestLegalMatchesDecide).
//
// # Play and results
//
// The leader plays any combination; each next seat with cards beats it or
// passes; when every other seat with cards has passed, the last player leads
// again, or, if that player went out with the play, the partner leads (接风,
// shuangkou.md Decision; the next seat with cards if the partner were out,
// which cannot happen while the hand runs, since a side out ends it).
//
// The hand ends when both players of a side are out (shuangkou.md, Result):
// the side that went out 1st and 2nd wins 3 × stake each (双扣, "shuangkou"),
// 1st and 3rd 2 × stake each (单扣, "dankou"); when the side out is not the
// 1st player's, the 1st went out with the 4th and the 1st's side wins 1 ×
// stake each ("pingkou"). The losers pay as much each, so every settlement
// sums to zero. With the options bomb_bonus and cap, each wins or pays
// stake × min(multiplier × bonus, cap).
//
// Escape (shuangkou.md, Escape Decision): the escaper's side loses as in 双扣:
// each opponent wins 3 × stake, the escaper pays 6 × stake, the partner 0.
//
// # Turn clock and bot (table.Autoplay)
//
// Awaited is the seat on turn; no other seat ever has a legal action. A
// seat whose time runs out passes when following and, when leading, plays
// its lowest card (climb.Sort's order) as a single.
//
// The bot reads only its view and legal list and shares the climbing
// games' policy (climb.Shapes.Choose): shed the hand in the fewest plays
// (straights of 5, pair runs of 3, trio runs of 2; wild jokers cost no play
// of their own in 百变), lowest first, keeping bombs; it lets the partner's
// (the seat across) winning play stand and stops an opponent with 3 cards
// or fewer.
package shuangkou
