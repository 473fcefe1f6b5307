// Help texts: `robotstxt --help`, `robotstxt help COMMAND`, `robotstxt COMMAND --help`.

import { defaultUserAgent } from '../http/user-agent.js'
import { VERSION } from './version.js'

const ROBOTS_ARG = `ROBOTS is a file path, '-' for stdin, or an http(s) URL: that origin's /robots.txt is
fetched (redirects, status codes and the 500 KiB limit as Google handles them; 4xx means
allow-all, 429/5xx and network errors mean disallow-all) and the outcome is shown on stderr.`

const AGENT_ARG = `AGENT is a crawler preset's name (in any case: Googlebot, Googlebot-Image, Bingbot, GPTBot,
ClaudeBot, ...; the package's \`crawlers\` list), which stands for every token that crawler obeys:
Googlebot-Image reads the groups naming Googlebot-Image or Googlebot, as Google documents. Any
other AGENT is the crawler's user-agent, of which only the product token counts
("MyBot/2.1 (+https://example.com/bot)" is matched as "MyBot"). --token NAME instead of AGENT
checks the product token NAME alone, preset or not. stderr names the agent when what is checked
is not simply the word given (a preset's tokens, a token no User-agent line can name).`

const FILTER_AGENT_ARG = `AGENT is the crawler's user-agent, checked as given (no preset); only its product token counts
("Googlebot/2.1 (+http://www.google.com/bot.html)" is matched as "Googlebot").`

const EXIT_STATUS = `Exit status: 0 allowed / no lint errors / expectations met, 1 disallowed / lint errors /
expectations failed, 2 usage error or unreadable input, 3 some input lines (check --urls, filter)
or survey records could not be read, 4 test: ROBOTS was fetched and gave no usable robots.txt
(network error, timeout, 429, 5xx, a cut or undecodable body).`

/**
 * The fetch options' help: what is fetched, and the User-Agent sent by default, as it is sent (a
 * command with an AGENT names it; the others send the package's own).
 */
function fetchOpts(what: string, forAgent: boolean): string {
  return `  --timeout MS        time limit for fetching ${what}, in ms (default 10000)
  --user-agent UA     User-Agent header sent when fetching ${what}; default:
    ${forAgent ? defaultUserAgent('AGENT') : defaultUserAgent()}
  --proxy URL         fetch through this HTTP proxy (http://HOST:PORT or https://...; user:pass@
                      for Basic auth); default: $HTTPS_PROXY for https URLs, $HTTP_PROXY for http
                      ones, none for the hosts in $NO_PROXY (a,.b,*.c:8080 or *); '' for none`
}

const FETCH_OPTS_AGENT = fetchOpts('ROBOTS', true)
const FETCH_OPTS = fetchOpts('ROBOTS', false)

/** Help per subcommand. */
export const HELP: Record<string, string> = {
  main: `robotstxt ${VERSION}: robots.txt checks exactly as Googlebot reads the file

Usage:
  robotstxt check ROBOTS AGENT URL...        is each URL allowed for AGENT?
  robotstxt check ROBOTS AGENT --urls FILE   the same for one URL per line ('-' = stdin)
  robotstxt explain ROBOTS AGENT URL         the group and rule that decide, and why
  robotstxt lint ROBOTS                      problems in a robots.txt, line by line
  robotstxt diff OLD NEW                     URLs whose verdict changes between two versions
  robotstxt filter AGENT [--urls FILE]       the allowed URLs of a list of any hosts
  robotstxt survey INPUT...                  what many robots.txt files tell each crawler
  robotstxt playground                       a page to try robots.txt files, on localhost
  robotstxt test ROBOTS EXPECTATIONS         hold a robots.txt to a file of expected verdicts
  robotstxt help [COMMAND]                   help for a command

${ROBOTS_ARG}

${AGENT_ARG}

Options:
  -h, --help      show help (also after a command: robotstxt check --help)
  -V, --version   print the version

Text output shows control characters from files, URLs and arguments as escapes (\\x1b,
\\t, \\u202e), so a hostile robots.txt or URL list cannot drive the terminal; --json output
keeps every string exact.

${EXIT_STATUS}
`,

  check: `Usage:
  robotstxt check ROBOTS AGENT URL...
  robotstxt check ROBOTS AGENT --urls FILE [--threads N]
  robotstxt check ROBOTS --token NAME URL...

Prints one line per URL, tab-separated:
  allowed|disallowed  LINE  URL
LINE is the robots.txt line that decided (0 when no rule matched).

Each URL is an absolute URL or a path ('/a', not '//a'). With --urls, FILE ('-' = stdin) holds
one URL per line (LF or CRLF). Output lines come in input order, one per input line, streamed:
memory stays flat for any number of URLs. Each line is echoed as read, with controls and the
bytes of invalid UTF-8 escaped (\\x1b, \\xff); it is checked as given (invalid UTF-8 as U+FFFD).
When ROBOTS was fetched, every URL must be on the same origin (a path is fine). A line that
cannot be checked (longer than 1,048,576 bytes, not an absolute URL or a path, a blank line
included, or not on the fetched origin) prints "error  0  LINE" in its place and a message with
its line number on stderr; the other lines are still checked, in order.

URLs are matched as written, as Google's matcher does: "/a/../b" is not "/b" here, though an HTTP
client requests "/b". Normalize first (new URL(...).href) to check what will be requested.

${ROBOTS_ARG}
A file over 500 KiB is cut there, as crawlers cut it; stderr says in which line.

${AGENT_ARG}

Options:
  --token NAME        check the product token NAME alone, instead of AGENT
  --urls FILE         read the URLs from FILE, one per line ('-' = stdin)
  --threads N         with --urls, threads checking the lines (default 1, at most 256): this
                      one and N - 1 workers, each compiling the rules once; the output is the
                      same bytes, in the same order
${FETCH_OPTS_AGENT}
  -h, --help          show this help

Exit status: 0 when every URL is allowed, 1 when any is disallowed, 2 on a usage error or
unreadable input, 3 when some --urls lines could not be checked.
`,

  diff: `Usage:
  robotstxt diff OLD NEW [--agents A,B,...] [--urls FILE] [--json]

Prints the URLs whose verdict differs between two versions of a robots.txt, one line per change:
  AGENT  URL  allowed|disallowed  OLD-LINE  allowed|disallowed  NEW-LINE
(the deciding line on each side, 0 when no rule matched).

OLD and NEW are files, '-' for stdin (one of them), or http(s) URLs fetched as for check (a 4xx
counts as an empty file, a 5xx or unreachable server as "Disallow: /").

Without --urls the URLs compared come from the rules of both files: for each rule that may decide
one side and each that may decide the other, every path on which both match, made of their
literal text and one filler byte between and after the pieces. Every change is found this way: a
path that changes has one of these with its verdicts and lines on both sides. A path starting
with "//" is printed behind http://probe.invalid (alone it would read as a host), so each URL
printed gives the same verdicts to check. Default agents: *, Googlebot and every agent named in
either file.

Options:
  --agents A,B        compare these user-agents only
  --urls FILE         compare these URLs instead (one per line, '-' for stdin)
  --json              the whole result as JSON
${FETCH_OPTS}
  -h, --help          show this help

Exit status: 0 when no verdict changes, 1 when some does (a CI guard for robots.txt edits), 2 on
a usage error or unreadable input.
`,

  filter: `Usage:
  robotstxt filter AGENT [--urls FILE|-] [--verdicts | --json] [--concurrency N] [--threads N]

Reads URLs of any hosts, one per line (from FILE, or stdin by default), fetches each origin's
robots.txt once (as check does for a URL ROBOTS), and prints the URLs AGENT may fetch, in input
order. With --verdicts every URL is printed, tab-separated:
  allowed|disallowed|error  LINE  OUTCOME  URL
where OUTCOME is that origin's robots.txt outcome (ok, allow-all or disallow-all). --json prints
one JSON object per URL: {url, allowed, line, origin, outcome[, error]}. Memory stays flat for any
number of URLs. On a terminal, stderr shows the progress and a summary.

A line that is not an http(s) URL (a blank line included, or one longer than 1,048,576
characters) is an error: a message with its line number on stderr ("error" in --verdicts), and
the other lines go on, as with check --urls. Lines are echoed as read, controls and the bytes of
invalid UTF-8 escaped (\\x1b, \\xff); --json gives each URL as it was checked.

${FILTER_AGENT_ARG}

Options:
  --urls FILE         read the URLs from FILE ('-' = stdin, the default)
  --verdicts          print every URL with its verdict, line and origin outcome
  --json              print every verdict as a JSON line
  --concurrency N     robots.txt fetches at once (default 16; per thread with --threads)
  --threads N         threads checking the URLs (default 1, at most 256): blocks of lines go to
                      N worker threads; each robots.txt is still fetched once, and the
                      output is the same, in the same order
${fetchOpts('each robots.txt', true)}
  -h, --help          show this help

Exit status: 0 when every URL is allowed, 1 when any is disallowed, 2 on a usage error or
unreadable input, 3 when some lines could not be checked.
`,

  survey: `Usage:
  robotstxt survey INPUT... [--origins FILE] [--crawlers NAMES] [--set SETS] [--tokens T,...]
                   [--paths P,...] [--by month|year|source] [--out FILE.jsonl|FILE.csv|FILE.parquet|-]
                   [--report FILE.html] [--threads N] [--shard I/N] [--prefix URL]
                   [--max-pipe-bytes N]

One row per robots.txt: its outcome (ok: the rules were read; allow-all: a 4xx; disallow-all: a
429, a 5xx or no response; error: the record could not be read), when it was captured, and for
each crawler its verdict and deciding line on each path, a class (blocked entirely, partly,
allowed) and whose rules decide (by name: a group names the crawler; by *: the global group),
its Content-Signal/Content-Usage preferences and Crawl-delay; per site the sitemap count and lint
error count. The verdicts are Google's.

INPUT is a WARC or WARC.gz file or its http(s) URL (Common Crawl's robots.txt files; response
records are read, others skipped; a URL is streamed, and a dropped connection resumed where it
stopped), a Common Crawl paths listing (*.paths or *.paths.gz, a file or a URL: one WARC file a
line, relative to --prefix), a folder (its files named robots.txt or *.txt, each read as a 200
response; the origin is the file name without .txt, or the folder of a robots.txt), or a .jsonl
file of {"origin", "status", "body", "captured"} lines ("status" required: a number, or null for
no response). '-' reads stdin; an input on a pipe (stdin, <(...)) is copied to a temporary file
first (in $TMPDIR), up to --max-pipe-bytes.

Options:
  --origins FILE      also fetch the robots.txt of each origin listed in FILE (one per line)
  --crawlers NAMES    crawler presets by name, comma-separated (an unknown name is an error)
  --set SETS          every preset in these sets: search, ai-training, ai-assistants, seo
                      (default, with none of --crawlers, --set, --tokens: every preset)
  --tokens T,...      raw robots.txt product tokens, each surveyed as a crawler of its own
  --paths P,...       paths to check besides / (each starting with /)
  --by PERIOD         also group the table and the report by month, year (of the capture) or
                      source, and compare the same origins between consecutive groups
  --out FILE          the rows as JSONL (.jsonl, or '-' for stdout), CSV (.csv) or Parquet
                      (.parquet; needs the package @duckdb/node-api)
  --report FILE.html  a static HTML report with charts
  --threads N         worker threads computing rows (default 1); the output order never changes
  --shard I/N         survey only the I-th of N shares of the input files (a folder's files and
                      a listing's files counted one by one; I from 1); the shards' outputs
                      together are the whole survey
  --prefix URL        what a listing's lines are relative to: a URL or a folder
                      (default https://data.commoncrawl.org/)
  --max-pipe-bytes N  copy at most N bytes of an input on a pipe (K, M, G, T: KiB, MiB, GiB,
                      TiB; default 4G); the rest is an error row at offset N
  --proxy URL         fetch the --origins through this HTTP proxy; default as for check
                      ($HTTPS_PROXY, $HTTP_PROXY, $NO_PROXY); they are fetched with
                      User-Agent: ${defaultUserAgent()}
  -h, --help          show this help

The table goes to stdout (stderr with --out -): records and origins, outcomes, failures by
status or code, then each crawler's shares of the records whose robots.txt was read (ok):
blocked entirely / partly, by name / by *, allowed, named. A record that cannot be read (a
truncated or corrupt WARC, a record without an HTTP head, a bad JSONL line) is reported on stderr
with its offset and gives an error row; the run goes on.

Exit status: 0 when every record was read, 3 when some could not be, 2 on a usage error or an
INPUT that does not exist.
`,

  explain: `Usage:
  robotstxt explain ROBOTS AGENT URL [--json]
  robotstxt explain ROBOTS --token NAME URL [--json]

Shows how the verdict comes about:
  - the groups that apply to AGENT and why: "specific" (a User-agent line names it; the *
    groups are then ignored), "global" (only * groups apply) or "none" (everything allowed),
    with their User-agent lines;
  - the path the rules are matched against (after percent-encoding, as crawlers do);
  - every rule of those groups that matches, with its priority (the pattern's length in
    bytes: the longest match wins, and an allow wins a tie);
  - the deciding rule and its line, and the verdict.
A file over 500 KiB is cut there, as crawlers cut it: the explanation says in which line ("cut";
in JSON, cut: {bytes, line, midLine}, else null).

${ROBOTS_ARG}

${AGENT_ARG}

Options:
  --token NAME        explain for the product token NAME alone, instead of AGENT
  --json              print the explanation as JSON
${FETCH_OPTS_AGENT}
  -h, --help          show this help

Exit status: 0 when explained (whatever the verdict: use check for a verdict status), 2 on a
usage error or unreadable input.
`,

  playground: `Usage:
  robotstxt playground [--port N] [--host H]

Serves the robots.txt playground on http://127.0.0.1 (a free port unless --port is given) and
prints its address; it opens nothing. The page runs in your browser on the same engine as this
command: paste or drop a robots.txt, pick crawlers, list URLs, and see each verdict, the deciding
line, the explain trace, lint markers, a crawlers × URLs matrix and a diff of two versions. The
whole state is kept in the page's address (#...), so a link reproduces it; nothing is sent.

Options:
  --port N            port to listen on (default: any free one)
  --host H            address to listen on (default 127.0.0.1)
  -h, --help          show this help

Stops on Ctrl-C. Exit status: 0, or 2 on a usage error or when the port is taken.
`,

  lint: `Usage:
  robotstxt lint ROBOTS [--json [--all-lines]]

Reports, with line numbers, what crawlers will do differently from what the file seems to say:
  error    lines or parts of the file without effect: rules before any User-agent line,
           patterns that can never match, an HTML page instead of a robots.txt, content past
           the 500 KiB limit
  warning  accepted by Google but risky elsewhere, or ignored: misspelled keys, missing
           colons, unknown keys, invalid UTF-8, over-long lines, User-agent lines without
           rules at the end of the file
  info     worth knowing: Crawl-delay and other extensions Google ignores, a byte order mark,
           user-agents matched by a shorter token

Output is "FILE:LINE: severity: message [code]", coloured on a terminal (unless NO_COLOR is
set). --json prints {source, bytes, summary, findings, lines}, where lines is the parser's
report of each line a finding points at (of every line with --all-lines).

${ROBOTS_ARG}

Options:
  --json              print the findings as JSON
  --all-lines         with --json, the report of every line, not only of those with findings
${FETCH_OPTS}
  -h, --help          show this help

Exit status: 0 when there are no errors (warnings and infos are fine), 1 when there are
errors, 2 on a usage error or unreadable input.
`,

  test: `Usage:
  robotstxt test ROBOTS EXPECTATIONS [--format text|json|github|junit] [--origin ORIGIN]
                 [--allow-unavailable]

Checks a robots.txt against what its site expects of it, for CI: after each build, on the file
the build wrote, or on a preview server's URL. EXPECTATIONS is a file ('-' = stdin; at most 1 MiB)
with one expectation per line:
  AGENT allow|disallow URL-OR-PATH
for example
  Googlebot allow /products/
  GPTBot    disallow /          # a comment
Fields are separated by spaces or tabs; blank lines and comments (from a "#" that starts a
field, so "/page#top" keeps its fragment) are skipped. AGENT is one word: the name of a
crawler preset (ignoring case), which stands for every token that crawler obeys (for
Googlebot-Image, the groups naming Googlebot-Image or Googlebot), or else a user-agent product
token, checked as it is; token:NAME checks the product token NAME alone, preset or not (as
check's --token NAME). URL-OR-PATH is an absolute URL or a path starting with '/' on the site.

Each expectation is checked as check checks AGENT and the URL, and reported with the robots.txt
line that decided (0 when no rule matched). A line that is not an expectation is reported on
stderr as "EXPECTATIONS:LINE: expected ..."; the other lines are still checked and reported.

When ROBOTS is a URL, absolute URLs must be on its origin, or on --origin ORIGIN: expectations
written for production (https://www.example.com/products/) are then checked as the same path
(/products/) on ROBOTS' site, such as a preview server (http://localhost:3000). With a file
ROBOTS and --origin, every absolute URL must be on ORIGIN. A URL on any other origin is a
malformed line.

A fetched ROBOTS that gives no usable robots.txt (no response, a timeout, 429, 5xx, a cut or
undecodable body: crawlers then treat every URL as disallowed) fails the run with exit status 4,
whatever the expectations say; they are not checked. Every format says so: an "ERROR" line, a
"fetch" object with "passed": false in JSON, an ::error annotation, a JUnit <error>.
--allow-unavailable checks them against disallow-all instead (exit 0 or 1), still reporting the
fetch (WARNING, ::warning, a skipped JUnit testcase). A 4xx means there is no robots.txt:
every URL is allowed, the expectations are checked against that, and every format says so
(NOTE, a "fetch" message, ::notice, a passed "robots.txt fetch" testcase).

Formats (--format):
  text     "pass" or "FAIL", the expectation's file:line, the verdict and its deciding line,
           then a summary
  json     {robots, expectations, fetch, summary, results, errors, notChecked}; each result
           is {line, agent, tokens, expected, url, passed, allowed, robotsLine, rule}, plus
           checkedAs (the path checked) for a URL on --origin
  github   GitHub Actions annotations: "::error file=EXPECTATIONS,line=N,..." on each failed
           expectation's line (the message names the robots.txt line), then the summary;
           give EXPECTATIONS as a path from the repository's root for them to show on it
  junit    JUnit XML: a testcase per expectation, a failure when it is not met, an error per
           malformed line

${ROBOTS_ARG}

Options:
  --format F          text (default), json, github or junit
  --origin ORIGIN     the site the expectations' URLs are written for (https://host[:port]):
                      its URLs are checked as their paths on ROBOTS' site
  --allow-unavailable check the expectations against disallow-all when ROBOTS gives no usable
                      robots.txt, instead of failing with exit status 4
${FETCH_OPTS}
  -h, --help          show this help

Exit status: 0 when every expectation is met, 1 when one is not, 2 on a usage error,
unreadable input, an empty EXPECTATIONS or a malformed line in it, 4 when ROBOTS was fetched and
gave no usable robots.txt (before 2: nothing could be checked).
`,
}
