package projections

import (
	"errors"
	"testing"
	"time"
)

func TestTitle(t *testing.T) {
	cases := []struct {
		points int
		want   string
	}{
		{-50, "农民"}, {0, "农民"}, {19, "农民"}, {20, "副村长"}, {39, "副村长"}, {40, "村长"},
		{80, "副乡长"}, {160, "乡长"}, {320, "副镇长"}, {640, "镇长"}, {1280, "镇委书记"},
		{2560, "副县长"}, {5120, "县长"}, {10240, "县委书记"}, {20480, "副市长"},
		{40960, "市长"}, {81919, "市长"}, {81920, "市委书记"}, {1 << 30, "市委书记"},
	}
	for _, c := range cases {
		if got := Title(c.points); got != c.want {
			t.Errorf("Title(%d) = %s, want %s (shengji.md, Rank titles)", c.points, got, c.want)
		}
	}
}

func TestBounds(t *testing.T) {
	sh, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	// 2026-11-29 17:30 UTC is Monday 2026-11-30 01:30 in Shanghai.
	now := time.Date(2026, 11, 29, 17, 30, 0, 0, time.UTC)
	cases := []struct {
		period   string
		from, to string
	}{
		{PeriodDay, "2026-11-30T00:00:00+08:00", "2026-12-01T00:00:00+08:00"},
		{PeriodWeek, "2026-11-30T00:00:00+08:00", "2026-12-07T00:00:00+08:00"},
		{PeriodMonth, "2026-11-01T00:00:00+08:00", "2026-12-01T00:00:00+08:00"},
	}
	for _, c := range cases {
		from, to, err := PeriodBounds(c.period, now, sh)
		if err != nil {
			t.Fatal(err)
		}
		if f := time.Unix(0, from).In(sh).Format(time.RFC3339); f != c.from {
			t.Errorf("%s from %s, want %s", c.period, f, c.from)
		}
		if g := time.Unix(0, to).In(sh).Format(time.RFC3339); g != c.to {
			t.Errorf("%s to %s, want %s", c.period, g, c.to)
		}
	}
	if _, _, err := PeriodBounds("year", now, sh); !errors.Is(err, ErrBadQuery) {
		t.Errorf("period year: %v", err)
	}
}
