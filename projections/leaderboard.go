package projections

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// titles are the rank titles of rules/shengji.md (Rank titles), by the least
// total points that earns each; below 20 (negative totals included) a
// player is 农民.
var titles = []struct {
	min   int
	title string
}{
	{81920, "市委书记"}, {40960, "市长"}, {20480, "副市长"}, {10240, "县委书记"},
	{5120, "县长"}, {2560, "副县长"}, {1280, "镇委书记"}, {640, "镇长"},
	{320, "副镇长"}, {160, "乡长"}, {80, "副乡长"}, {40, "村长"}, {20, "副村长"},
}

// Title is the rank title for a total of points.
func Title(points int) string {
	for _, t := range titles {
		if points >= t.min {
			return t.title
		}
	}
	return "农民"
}

// Periods of a leaderboard.
const (
	PeriodAll   = "all"
	PeriodDay   = "day"
	PeriodWeek  = "week"
	PeriodMonth = "month"
)

// PeriodBounds returns [from, to) in unix nanoseconds for the period containing
// now, in loc. Weeks start on Monday.
func PeriodBounds(period string, now time.Time, loc *time.Location) (from, to int64, err error) {
	t := now.In(loc)
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
	var start, end time.Time
	switch period {
	case "", PeriodAll:
		return math.MinInt64, math.MaxInt64, nil
	case PeriodDay:
		start, end = day, day.AddDate(0, 0, 1)
	case PeriodWeek:
		start = day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
		end = start.AddDate(0, 0, 7)
	case PeriodMonth:
		start = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, loc)
		end = start.AddDate(0, 1, 0)
	default:
		return 0, 0, fmt.Errorf("%w: period must be all, day, week or month", ErrBadQuery)
	}
	return start.UnixNano(), end.UnixNano(), nil
}

// LeaderboardQuery selects a leaderboard page.
type LeaderboardQuery struct {
	Game    string
	Variant string // empty: every variant
	Period  string // all (default), day, week, month
	Cursor  string
	Limit   int
	// Around, if set, returns the page of Limit rows centred on this player
	// (ErrNotFound if they have no row); Cursor is then ignored.
	Around string
}

// Row is one player's line.
type Row struct {
	Rank     int    `json:"rank"`
	PlayerID string `json:"player_id"`
	Name     string `json:"name"`
	Score    int    `json:"score"`
	Hands    int    `json:"hands"`
	Wins     int    `json:"wins"`
	Title    string `json:"title"`
}

// Leaderboard is a page of a leaderboard.
type Leaderboard struct {
	Game     string    `json:"game"`
	Variant  string    `json:"variant,omitempty"`
	By       string    `json:"by,omitempty"` // points; the API sets it
	Period   string    `json:"period"`
	From     time.Time `json:"from,omitzero"`
	To       time.Time `json:"to,omitzero"`
	TimeZone string    `json:"time_zone"`
	Rows     []Row     `json:"rows"`
	Next     string    `json:"next_cursor,omitempty"`
}

// GameStats are a player's totals in one game, over all time.
type GameStats struct {
	Game  string `json:"game"`
	Score int    `json:"score"`
	Hands int    `json:"hands"`
	Wins  int    `json:"wins"`
	Title string `json:"title"`
}

// PlayerStats are a player's totals per game.
type PlayerStats struct {
	PlayerID string      `json:"player_id"`
	Name     string      `json:"name"`
	Games    []GameStats `json:"games"`
}

// RankPage ranks all, the unranked rows of a leaderboard, by score, ties
// broken by fewer hands, then player id, so that ranks are deterministic;
// it sets each row's rank and title (which goes by the row's score), and
// returns the page of limit rows after the cursor position after, or the
// one centred on the player around if not empty (ErrNotFound if they have
// no row), with the cursor of the next page ("" at the end). Ranked here,
// not in SQL, the order of player ids is Go's byte order, whatever the
// database's collation.
func RankPage(all []Row, around string, after int64, limit int) (page []Row, next string, err error) {
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Hands != b.Hands {
			return a.Hands < b.Hands
		}
		return a.PlayerID < b.PlayerID
	})
	for i := range all {
		all[i].Rank = i + 1
		all[i].Title = Title(all[i].Score)
	}
	start := int(min(after, int64(len(all))))
	if around != "" {
		idx := -1
		for i, r := range all {
			if r.PlayerID == around {
				idx = i
				break
			}
		}
		if idx < 0 {
			return nil, "", ErrNotFound
		}
		start = max(0, min(idx-limit/2, len(all)-limit))
	}
	end := min(start+limit, len(all))
	if end < len(all) {
		next = EncodeCursor(int64(end))
	}
	return all[start:end], next, nil
}
