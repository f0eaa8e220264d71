package shengji

import "testing"

// qiangbaoGoldenIDs are the seeds of the qiangbao golden hands, in the
// order of goldenCases; TestFindQiangbaoGolden finds them.
var qiangbaoGoldenIDs = [5]uint64{1, 10, 1, 17, 23} // tiebreak 23 since qiangbao/2 (16 showed a seat's own pair of another suit)

// TestFindQiangbaoGolden searches, with -shengji.findgolden, the first seed
// whose random table shows what each qiangbao golden case is about.
func TestFindQiangbaoGolden(t *testing.T) { findGoldenSeeds(t, "qiangbao") }
