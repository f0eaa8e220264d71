package shengji

import "testing"

// qiangbaoGoldenIDs are the seeds of the qiangbao golden hands, in the
// order of goldenCases; TestFindQiangbaoGolden finds them.
var qiangbaoGoldenIDs = [5]uint64{1, 10, 1, 17, 16}

// TestFindQiangbaoGolden searches, with -shengji.findgolden, the first seed
// whose random table shows what each qiangbao golden case is about.
func TestFindQiangbaoGolden(t *testing.T) { findGoldenSeeds(t, "qiangbao") }
