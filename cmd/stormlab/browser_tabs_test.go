package main

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserTabs opens ten tabs of the explorer in one browser: every
// one gets its page and streams its run. Over HTTP/1.1 a browser keeps at
// most six connections to a host, which six event streams would hold; the
// page's WebSocket is not one of them.
func TestBrowserTabs(t *testing.T) {
	ctx, cancel, url := explorer(t, "../../experiments/server-60.toml")
	defer cancel()
	const tabs = 10
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil { // the browser, started
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, tabs)
	start := time.Now()
	took := make([]time.Duration, tabs)
	for i := range tabs {
		tab, closeTab := chromedp.NewContext(ctx)
		defer closeTab()
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each tab streams at 1×: three rows take three seconds.
			errs[i] = chromedp.Do(tab, chromedp.Navigate(url+"/?experiment=server-60"),
				chromedp.Poll[chromedp.Void](`window.stormlab && window.stormlab.rows.length >= 3`, chromedp.WithPollingTimeout(60*time.Second)))
			took[i] = time.Since(start)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("tab %d of %d: %v", i+1, tabs, err)
		}
	}
	t.Logf("%d tabs streaming; the last had 3 rows %v after the first was opened (%v)", tabs, fmt.Sprint(took), time.Since(start))
}
