package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// The browser test renders the HTML report, and the Markdown report as
// GitHub does (cmark-gfm with tables), in headless Chromium at 1000 px, and
// reads the rendered page's DOM (--dump-dom) for what a reader sees: the
// verdict on the first screen, the charts' numbers, tables that fit the
// page, and hostile names shown as text. Screenshots are left in the test's
// temporary folder (go test -run Browser -v prints it).
//
// Chromium and cmark-gfm are Debian packages (chromium, cmark-gfm) that
// .ci/run installs; the test skips, saying so, when they are missing.

// browserWidth is the page width the reports must read at.
const browserWidth, browserHeight = 1000, 800

func findChromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no headless browser: install Debian's chromium and cmark-gfm (apt-get install chromium cmark-gfm; .ci/run does) to run the browser test")
	return ""
}

// measureScript runs in the rendered page and writes what the test checks
// into a <pre id="dumpdiff-measure"> as JSON: the viewport, the verdict's
// box and text, each table's box and scroll width, each chart's values,
// the Mermaid sources, the page's own scripts and images, and its text.
const measureScript = `<script data-test>
(function(){
  var out = {w: innerWidth, h: innerHeight, docW: document.documentElement.scrollWidth};
  var v = document.querySelector('.verdict') || document.querySelector('h1 + ul');
  if (v) { var r = v.getBoundingClientRect(); out.verdict = {top: r.top, bottom: r.bottom, text: v.textContent}; }
  out.tables = Array.from(document.querySelectorAll('table')).map(function(t){
    var r = t.getBoundingClientRect();
    return {right: r.right, width: r.width, scroll: t.scrollWidth, client: t.clientWidth};
  });
  out.charts = Array.from(document.querySelectorAll('svg.chart')).map(function(s){
    return {finding: +s.getAttribute('data-finding'),
      values: Array.from(s.querySelectorAll('text.value')).map(function(e){ return +e.textContent; })};
  });
  out.mermaid = Array.from(document.querySelectorAll('pre code')).map(function(c){ return c.textContent; })
    .filter(function(t){ return t.indexOf('xychart-beta') >= 0; });
  out.scripts = Array.from(document.scripts).filter(function(s){ return !s.hasAttribute('data-test'); })
    .map(function(s){ return s.textContent.slice(0, 60); });
  out.images = document.images.length;
  var q = document.querySelector('.search .q');
  if (q && QUERY) {
    var all = document.querySelectorAll('[data-search]');
    q.value = QUERY;
    q.dispatchEvent(new Event('input'));
    var shown = Array.from(all).filter(function(e){ return !e.hidden; }).length;
    out.filter = {shown: !q.closest('.search').hidden, total: all.length, visible: shown};
  }
  // Cells whose text overflows them, or breaks a word between two letters
  // or digits (a name cut letter by letter in a squeezed column; a name
  // may break after its punctuation).
  out.badCells = [];
  document.querySelectorAll('td, th').forEach(function(c){
    if (c.scrollWidth > c.clientWidth + 1) { out.badCells.push({text: c.textContent.slice(0, 80), why: 'overflows'}); return; }
    var walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT), n;
    while ((n = walk.nextNode())) {
      var s = n.textContent, prevTop = null;
      for (var i = 0; i < s.length; i++) {
        if (/\s/.test(s[i])) { prevTop = null; continue; }
        var r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
        var rects = r.getClientRects(); if (!rects.length) continue;
        var top = rects[0].top;
        if (prevTop !== null && top > prevTop + 2 && /[A-Za-z0-9]/.test(s[i-1]) && /[A-Za-z0-9]/.test(s[i])) {
          out.badCells.push({text: c.textContent.slice(0, 80), why: 'word broken after ' + JSON.stringify(s.slice(Math.max(0, i-8), i))});
          return;
        }
        prevTop = top;
      }
    }
  });
  // The smallest chart text as drawn (its box's height, in CSS px).
  out.minChartText = 0;
  document.querySelectorAll('svg.chart text').forEach(function(e){
    var h = e.getBoundingClientRect().height;
    if (h > 0 && (out.minChartText === 0 || h < out.minChartText)) out.minChartText = h;
  });
  out.text = document.body.innerText;
  var pre = document.createElement('pre');
  pre.id = 'dumpdiff-measure';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`

// githubCSS is enough of GitHub's Markdown styles to lay a page out as it
// does: a 980 px column, tables as blocks that scroll inside it.
const githubCSS = `body{margin:0;font:16px/1.5 -apple-system,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif}
.markdown-body{box-sizing:border-box;max-width:980px;margin:0 auto;padding:32px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:85%}
pre{overflow:auto;padding:16px;background:#f6f8fa}
table{display:block;width:max-content;max-width:100%;overflow:auto;border-collapse:collapse}
td,th{padding:6px 13px;border:1px solid #d1d9e0}`

type measured struct {
	W, H, DocW float64
	Verdict    *struct {
		Top, Bottom float64
		Text        string
	}
	Tables []struct{ Right, Width, Scroll, Client float64 }
	Charts []struct {
		Finding int
		Values  []int
	}
	Mermaid  []string
	BadCells []struct{ Text, Why string }
	// MinChartText is the height of the smallest chart text as drawn, in
	// CSS px; 0 when the page has no chart.
	MinChartText float64
	Scripts      []string
	Images       int
	Text         string
	// Filter is what typing a thread's name in the search box left
	// visible; nil when the page has no search box.
	Filter *struct {
		Shown          bool
		Total, Visible int
	}
}

var measureRE = regexp.MustCompile(`(?s)<pre id="dumpdiff-measure">(.*?)</pre>`)

// renderInBrowser loads page in headless Chromium at browserWidth, saves a
// screenshot as shot, and returns what measureScript found.
func renderInBrowser(t *testing.T, chromium, page, shot string) measured {
	return renderInBrowserAt(t, chromium, page, shot, browserWidth, browserHeight)
}

// renderInBrowserAt is renderInBrowser in a window of w × h px.
func renderInBrowserAt(t *testing.T, chromium, page, shot string, w, h int) measured {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir="+filepath.Join(filepath.Dir(page), "profile-"+filepath.Base(page)),
		fmt.Sprintf("--window-size=%d,%d", w, h),
		"--screenshot="+shot, "--dump-dom", "file://"+page)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	m := measureRE.FindSubmatch(stdout.Bytes())
	if m == nil {
		t.Fatalf("the page holds no measurement (did its scripts run?):\n%.2000s", stdout.String())
	}
	var out measured
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &out); err != nil {
		t.Fatalf("reading the measurement: %v", err)
	}
	return out
}

func TestBrowser(t *testing.T) {
	chromium := findChromium(t)
	cmark, cmarkErr := exec.LookPath("cmark-gfm")
	scen := filepath.Join("..", "testdata", "scenarios")
	cases := []struct {
		name string
		r    func(t *testing.T) *analyze.Result
	}{
		{"hikari", func(t *testing.T) *analyze.Result {
			return analyzeScenario(t, filepath.Join(scen, "hikari-pool-exhausted"))
		}},
		{"no-timeout", func(t *testing.T) *analyze.Result {
			return analyzeScenario(t, filepath.Join(scen, "slow-upstream-no-timeout"))
		}},
		{"hostile", func(*testing.T) *analyze.Result { return handmade() }},
	}
	dir := t.TempDir()
	t.Logf("pages and screenshots in %s", dir)
	for _, c := range cases {
		r := c.r(t)
		for _, format := range []Format{FormatHTML, FormatMarkdown} {
			t.Run(c.name+"-"+string(format), func(t *testing.T) {
				t.Parallel()
				out := render(t, r, Options{Format: format})
				var page string
				switch format {
				case FormatHTML:
					page = strings.Replace(out, "</body>", withQuery(measureScript, filterQuery(r))+"\n</body>", 1)
				case FormatMarkdown:
					if cmarkErr != nil {
						t.Skip("cmark-gfm not installed (apt-get install cmark-gfm; .ci/run does): Markdown not rendered")
					}
					// --unsafe keeps raw HTML (our <details>) as GitHub
					// does; no tagfilter: escaping alone must keep a
					// hostile name from becoming markup.
					cmd := exec.Command(cmark, "--unsafe", "--extension", "table")
					cmd.Stdin = strings.NewReader(out)
					body, err := cmd.Output()
					if err != nil {
						t.Fatalf("cmark-gfm: %v", err)
					}
					page = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><style>" + githubCSS +
						"</style></head><body><article class=\"markdown-body\">\n" + string(body) + "</article>\n" + withQuery(measureScript, "") + "\n</body></html>\n"
				}
				path := filepath.Join(dir, c.name+"."+string(format)+".html")
				if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
					t.Fatal(err)
				}
				m := renderInBrowser(t, chromium, path, filepath.Join(dir, c.name+"."+string(format)+".png"))
				checkRendered(t, r, format, m)
			})
		}
	}
}

// filterQuery is what the test types in the HTML page's search box: the
// first sample name of the root cause's largest stack group; "" if none.
func filterQuery(r *analyze.Result) string {
	for i := range r.Findings {
		if g := findingGroup(r, &r.Findings[i]); g != nil {
			for _, sg := range StackGroups(g, r.Findings[i].At) {
				if len(sg.Samples) > 0 {
					return strings.ToLower(sg.Samples[0])
				}
			}
		}
	}
	return ""
}

// withQuery puts q in the measure script as a JavaScript string.
func withQuery(script, q string) string {
	js, _ := json.Marshal(q)
	return strings.Replace(script, "QUERY", string(js), -1)
}

// checkRendered checks the rendered page of r.
func checkRendered(t *testing.T, r *analyze.Result, format Format, m measured) {
	if m.W != browserWidth {
		t.Errorf("the page is %v px wide, want %d", m.W, browserWidth)
	}
	// The verdict, whole, on the first screen, saying the root cause.
	if len(r.Findings) > 0 {
		f := &r.Findings[0]
		switch {
		case m.Verdict == nil:
			t.Errorf("no verdict block in the page")
		case m.Verdict.Top < 0 || m.Verdict.Bottom > m.H:
			t.Errorf("the verdict is at %v–%v px: not within the first screen of %v px", m.Verdict.Top, m.Verdict.Bottom, m.H)
		case !strings.Contains(m.Verdict.Text, "Root cause") || !strings.Contains(m.Verdict.Text, headClause(r, f)):
			t.Errorf("the verdict does not say the root cause %q:\n%s", headClause(r, f), m.Verdict.Text)
		}
	}
	// No table wider than the page, nor any content that makes it scroll.
	if m.DocW > m.W {
		t.Errorf("the page is %v px wide at a %v px window: it scrolls sideways", m.DocW, m.W)
	}
	for i, tb := range m.Tables {
		if tb.Right > m.W+0.5 || tb.Scroll > tb.Client+1 {
			t.Errorf("table %d: right edge %v px, content %v px in %v px: wider than the page", i+1, tb.Right, tb.Scroll, tb.Client)
		}
	}
	// The charts draw the findings' counts.
	n := len(r.Moments)
	for i, f := range r.Findings {
		if n < 2 || len(f.Counts) == 0 {
			continue
		}
		want := fitCounts(f.Counts, n)
		switch format {
		case FormatHTML:
			found := false
			for _, c := range m.Charts {
				if c.Finding == i+1 {
					found = true
					if fmt.Sprint(c.Values) != fmt.Sprint(want) {
						t.Errorf("finding %d's chart shows %v, the finding counts %v", i+1, c.Values, want)
					}
				}
			}
			if !found {
				t.Errorf("finding %d has no chart", i+1)
			}
		case FormatMarkdown:
			line := "line [" + strings.Trim(strings.Join(strings.Fields(fmt.Sprint(want)), ", "), "[]") + "]"
			if !strings.Contains(strings.Join(m.Mermaid, "\n"), line) {
				t.Errorf("no Mermaid chart of finding %d draws %q", i+1, line)
			}
		}
	}
	// The search box appears with the script and filters: a thread's name
	// leaves some threads and groups visible, not all.
	if format == FormatHTML && filterQuery(r) != "" {
		switch f := m.Filter; {
		case f == nil || !f.Shown:
			t.Errorf("the search box is not shown")
		case f.Visible == 0 || f.Visible >= f.Total:
			t.Errorf("filtering by %q leaves %d of %d threads and groups visible", filterQuery(r), f.Visible, f.Total)
		}
	}
	// Names from the dumps are text: the page runs only its own script,
	// shows no image, and shows the hostile names as written.
	wantScripts := map[Format]int{FormatHTML: 1, FormatMarkdown: 0}[format]
	if len(m.Scripts) != wantScripts || m.Images != 0 {
		t.Errorf("the page runs %d scripts (%q) and shows %d images; want %d and 0", len(m.Scripts), m.Scripts, m.Images, wantScripts)
	}
	for _, p := range r.Pools {
		if strings.ContainsAny(p.Name, "|`<") && !strings.Contains(m.Text, p.Name) {
			t.Errorf("the pool %q is not shown as written", p.Name)
		}
	}
}

// TestBrowserWidths renders the HTML report of every scenario and the
// hostile analysis at a phone's width (400 px) and a laptop's (1280 px):
// the page never scrolls sideways (a wide table scrolls in its own box),
// no table cell is narrower than a word (a name breaks after its
// punctuation, never letter by letter), and the verdict is on the first
// screen at 1280 px.
func TestBrowserWidths(t *testing.T) {
	chromium := findChromium(t)
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "scenarios", "*"))
	if len(dirs) < 6 {
		t.Fatalf("%d scenarios", len(dirs))
	}
	cases := map[string]func(t *testing.T) *analyze.Result{"hostile": func(*testing.T) *analyze.Result { return handmade() }}
	for _, d := range dirs {
		cases[filepath.Base(d)] = func(t *testing.T) *analyze.Result { return analyzeScenario(t, d) }
	}
	dir := t.TempDir()
	t.Logf("pages and screenshots in %s", dir)
	for name, mk := range cases {
		r := mk(t)
		page := strings.Replace(render(t, r, Options{Format: FormatHTML}), "</body>", withQuery(measureScript, "")+"\n</body>", 1)
		path := filepath.Join(dir, name+".html")
		if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		// Headless Chromium keeps a window at least 500 px wide: the page
		// is shown in a frame as wide as the screen it is tested for (its
		// media queries see the frame's width), and the frame's
		// measurement is copied out when it has loaded.
		framed := func(w int) string {
			p := filepath.Join(dir, fmt.Sprintf("%s-%d-frame.html", name, w))
			doc := fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0}iframe{border:0;display:block}</style></head><body>`+
				`<iframe id="f" width="%d" height="800" srcdoc="%s"></iframe><script>`+
				`window.addEventListener('load', function(){ var m = document.getElementById('f').contentDocument.getElementById('dumpdiff-measure');`+
				`var pre = document.createElement('pre'); pre.id = 'dumpdiff-measure'; pre.textContent = m ? m.textContent : '{}'; document.body.appendChild(pre); });`+
				`</script></body></html>`, w, html.EscapeString(page))
			if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
		for _, w := range []int{400, 1280} {
			t.Run(fmt.Sprintf("%s-%dpx", name, w), func(t *testing.T) {
				m := renderInBrowserAt(t, chromium, framed(w), filepath.Join(dir, fmt.Sprintf("%s-%d.png", name, w)), max(w, 500), 800)
				if m.W != float64(w) {
					t.Fatalf("the window is %v px wide, want %d", m.W, w)
				}
				if m.DocW > m.W {
					t.Errorf("the page is %v px wide at %v px: it scrolls sideways", m.DocW, m.W)
				}
				t.Logf("smallest chart text %.1f px high", m.MinChartText)
				if m.MinChartText > 0 && m.MinChartText < minChartText {
					t.Errorf("chart text %.1f px high: below %v px, too small to read", m.MinChartText, minChartText)
				}
				for _, c := range m.BadCells {
					t.Errorf("cell %q: %s", c.Text, c.Why)
				}
				if w == 1280 && len(r.Findings) > 0 && (m.Verdict == nil || m.Verdict.Bottom > m.H) {
					t.Errorf("the verdict is not on the first screen at %d px", w)
				}
			})
		}
	}
}

// minChartText is the smallest chart text height (its box, about 1.2
// times the font size) a reader can read on a phone: a 9 px font.
const minChartText = 10.5
