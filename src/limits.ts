/**
 * Every bound the service enforces, in one place. Each figure says why it is that number.
 * Layers import from here; nothing else hard-codes a limit.
 */
export const LIMITS = {
  shell: {
    /** Tool output cap. ~30 KB is about 7,500 tokens: enough for several whole pages in one batch
     *  read, small enough that one careless `cat` of a spec cannot flood an agent's context. */
    maxOutputBytes: 30_000,
    /** Wall-clock backstop per command line: a safety net against a hang, not the call's limit.
     *  The limit is the work budget (`maxSteps`), a count, so that a command's answer does not
     *  depend on how busy the machine is (issue 25: at 5 s, `rg -il checkout /` over 50,000
     *  pages answered on a quiet machine and ended with exit 124 on a busy one). Only a single
     *  step the budget cannot see (native code in just-bash's jq or awk on a huge value) or a
     *  machine thousands of times slower than usual reaches it; in a shell worker such a step
     *  ends at the thread's CPU limit first (`shellWorker.maxCpuMs`), so only a thread waiting
     *  without spinning is left for this. Not lowered to 30 s: a command within its CPU limit
     *  gets ~1/15 of a core at load 30 on 2 cores, and 4 s of CPU then take ~60 s. */
    maxExecutionMs: 60_000,
    /** CPU time of the process's own thread one call may use where commands run in it (`serve
     *  --no-shell-worker`: `DocsShell` with `clockInLoops`), read from /proc as the
     *  work counts (`thread-cpu.ts`), the same figure a shell worker's thread gets
     *  (`shellWorker.maxCpuMs`, which the pool checks from outside). Before (issue 25), those
     *  modes had no CPU limit at all. Read only where the count checks (every
     *  `stepsBetweenChecks` steps), so a single native step still runs to just-bash's own clock
     *  check (docs/shell.md, "Bounds"). Under `serve --no-shell-worker` the thread also serves
     *  other calls, whose CPU counts against the running one (use the pool there). */
    maxCpuMs: 5_000,
    /** Commands per call as just-bash counts them (pipes, loops). Not the call's limit: each
     *  command is `BASH_COMMAND_STEP` steps of the work budget (`maxSteps`), which ends a long
     *  loop first, at the same step on any machine (issue 25: at 10,000, `while [ $i -lt 20000 ]`
     *  stopped with `too many commands`, a count no work or CPU figure justified). Kept as a
     *  backstop for a shell run without a budget. */
    maxCommandCount: 4_000_000,
    /** Longest command string accepted; real agent commands are well under 1 KB. */
    maxCommandLength: 8_192,
    /** Iterations just-bash lets one loop make (`for`, `while`, `until`), and the count its own
     *  commands use as their iteration cap (`seq`'s numbers, `join`, `strings`, `tr`'s sets).
     *  Not the call's limit either: every iteration runs at least one command, charged to the
     *  work budget (`maxCommandCount`), so the budget ends a long loop first (issue 25: at
     *  10,000, `seq 100000 | wc -l` and `for i in $(seq 20000)` failed with `iteration limit
     *  exceeded`). Set at the budget's size: no loop within the budget reaches it. */
    maxLoopIterations: 4_000_000,
    /** Passes of one awk loop, and commands our sed runs without reading a line
     *  (`SedLoopExceeded`): 100,000, the figure they had when it was ten times the loop limit.
     *  sed's is what ends `:a;s/x/x/;ta`, whose steps are too cheap for the budget to end by
     *  CPU; awk's loops reach the work budget first (`AWK_STEP`). */
    maxAwkSedIterations: 100_000,
    /** Words one brace expansion may make (`{1..100000}`), also given to just-bash as its
     *  `maxBraceExpansionResults` (its default, 10,000, stopped `{1..20000}`, which bash expands
     *  and an agent may write; issue 25). 100,000 words of up to six digits are ~0.6 MB, under
     *  the output bound; a longer range is refused before anything runs, with this figure named
     *  (just-bash itself stopped `{1..100000000}` silently at its limit, with exit 0). */
    maxBraceRangeWords: 100_000,
    /** The call's limit: steps of work, counted by the commands as they work
     *  (`work-budget.ts`): each awk expression or statement (20), comparison of `sort`
     *  (3), command of `sed` (5), and every 256 bytes a command reads from a file or a pipe or
     *  writes. A count, not a time: a call over it stops at the same step on any machine, with
     *  exit 124 (issue 25). Four million is ~1-3 s of CPU for the costliest steps (measured on
     *  just-bash's jq, whose node was the unit; jq is now the real jq in WebAssembly, counted
     *  only by its start (`JQ_START_STEPS`), its input and its output: inside, its bounds are
     *  `jq.maxMemoryBytes` and the CPU limit), while a search over a whole
     *  50,000-page site (380 MB) is 1.5 million. */
    maxSteps: 4_000_000,
    /** Every this many steps a command in a loop also checks the caller's cancellation and the
     *  wall-clock backstop: just-bash's awk and our sort never let the thread's event loop run, so a timer
     *  cannot stop them in the process's own thread. 1,024 steps are well under a millisecond. */
    stepsBetweenChecks: 1_024,
    /** Internal buffer for one command's output before the tool-level cap truncates it. Bounds
     *  memory for `cat` of everything piped into `wc`. */
    maxInternalOutputBytes: 16 * 1024 * 1024,
    /** When output is cut to `maxOutputBytes`, stderr keeps at most this much of it: the error
     *  lines an agent needs (a few hundred bytes) come first, and the rest of the cap goes to
     *  stdout, the part that answers the question. */
    maxStderrBytesWhenTruncated: 2_000,
  },
  shellWorker: {
    /** Past a command's wall-clock backstop (`shell.maxExecutionMs`), how long a shell worker
     *  may stay silent before the host takes it for stuck in synchronous code (native code on a
     *  huge value, a loop no step count sees) and replaces it. A command stopped at the backstop
     *  answers within milliseconds; 500 ms leaves room for a garbage collection or a loaded
     *  machine. Runaways the work budget sees end by it long before. */
    stuckGraceMs: 500,
    /** CPU time a worker thread may spend on one command (its own utime + stime, read from
     *  `/proc/self/task/TID/stat` every `cpuPollMs`) before the host ends it with exit 124
     *  (`thread-cpu.ts`). A backstop for the one kind of work the step count (`maxSteps`) cannot
     *  see: a single native step, as jq's doubling string or one huge regex or sort, which held
     *  a worker up to the wall-clock backstop. Thread CPU does not grow with machine load (a
     *  thread waiting for a core accrues none), only with the machine's speed. The heaviest
     *  commands within the step budget took at most 2.5 s of their thread's CPU here
     *  (docs/measurements.md, "CPU limit"); 5 s leaves them twice that. */
    maxCpuMs: 5_000,
    /** How often a running command's thread CPU is read: a file read of a few microseconds,
     *  and a runaway overshoots the limit by at most this. */
    cpuPollMs: 150,
    /** Heap of each shell worker. The site's text is not in it (workers share one encoded
     *  snapshot outside their heaps: `shared-snapshot.ts`), only what a command builds; a
     *  command that allocates without bound ends its worker, not the server. */
    maxHeapMb: 1_024,
    /** Young generation of each shell worker (V8's `maxYoungGenerationSizeMb`: two semi-spaces
     *  of a third each and room for new large objects), below V8's default of 48. Every thread
     *  of the pool, idle ones too, kept the default's 32 MB of semi-spaces resident once it had
     *  run a command (issue 22: a worker of `serve --http` keeps two idle, one running); at 24,
     *  16 MB each, and `rg -il` over a 50,000-page site took the same CPU (12.4 s and 12.5 s
     *  for six runs). A command's garbage dies young; what it keeps is its output, bounded. */
    youngGenerationMb: 24,
    /** The pool's size is cores x `workersPerCore`, within `minWorkers..maxWorkers`
     *  (`shellPoolSize`). A call holds its worker until it ends (synchronous code cannot be
     *  pre-empted, only ended at its limit plus grace), so there are more workers than cores:
     *  some can be held by slow calls while the rest still get a share of a core. */
    workersPerCore: 2,
    /** On 2 cores (or 1): five callers each holding a runaway still leave a worker for a sixth
     *  (issue 25: four addresses with one runaway each must not stall another reader). A
     *  worker holds no copy of the site (workers share one), and idle ones are stopped. */
    minWorkers: 6,
    /** 16 commands of milliseconds at once is far more than the per-hour rate limits let
     *  callers ask for. */
    maxWorkers: 16,
    /** Commands one caller (an address, an IPv6 /64, a token) may hold in the pool at once,
     *  running and waiting together. An agent sends a handful at once; more is a flood, refused
     *  at once (naming this limit) rather than held for minutes behind the caller's own calls. */
    maxHeldPerCaller: 8,
    /** Commands one caller may have running at once: two lets an agent's parallel reads go
     *  together; more would let three callers hold every worker of a 2-core machine. */
    maxRunningPerCaller: 2,
    /** Workers kept for callers with nothing running: a caller already running a command may
     *  start another only while this many stay free. With two, a newcomer finds a worker even
     *  when a few callers each run all they may (3 callers x 2 on the pool of 6: 4 run, 2 free). */
    reserveWorkers: 2,
    /** Under `serve --http --workers N` the primary counts each caller's commands for every
     *  worker (`ShellPlaceLedger`): an ask it has not answered in this long (it is stalled; gone,
     *  the ask fails at once) lets the command be counted by its worker's bounds alone, as before
     *  that count existed, rather than wait on. A fault's backstop, not a decision by time: the
     *  primary answers in well under a millisecond, and seconds on a machine at load 20. */
    primaryAnswerMs: 2_000,
    /** CPU a command whose caller gave it up (or that is stopped to make room) may use after it
     *  was told to stop (through shared memory; the interpreter checks as it works: a runaway
     *  `awk` checks about once a second on a quiet machine), its worker thread's and its jq
     *  threads', before its worker is ended instead. CPU, not wall time (wall time only where CPU
     *  cannot be read): a worker waiting for a core at load ~50 is not stuck, and ending it cost a
     *  restart of 10-50 s at that load (issue 25, bench row (h)). The caller's place stays held
     *  meanwhile, so this only decides whether a worker is restarted. */
    cancelGraceMs: 2_000,
    /** Workers only trusted callers (`trustAnswers` commands of theirs answered, none held a worker for long
     *  since) may take: a new caller (nothing known of it) may start a command only while one
     *  more stays free. So fresh addresses, as many as the pool has workers, each sending a first
     *  runaway at once, hold all workers but this one, and a reader whose commands answer still
     *  finds it (issue 25). One, not two: a new caller still finds a worker while heavy callers
     *  hold all they may (pool size - `reserveWorkers`). */
    trustedWorkers: 1,
    /** Answered commands (none held a worker for long since) that make a caller trusted, free
     *  to take any worker. Counted, never timed. One was not enough (adversary round 54 F3):
     *  300 addresses each answered one `ls /`, then each sent one runaway, six at a time, and
     *  held the pool for 50 time limits. Below this count a caller is new: such callers together
     *  leave `trustedWorkers` free, so a reader with a longer record keeps one, and an address
     *  prepared for one runaway costs this many answered commands. Eight: an agent's session
     *  sends more, and new callers' quick commands are served as before (they lose only the
     *  last worker, and only while the pool is full). */
    trustAnswers: 8,
    /** A new caller's first command (nothing known of the caller, nothing of theirs running) may
     *  be stopped and queued again (`ShellHost`'s preemption) once it has used this much CPU
     *  (its worker thread's and its jq threads'), while another caller with nothing running waits for
     *  a worker it may take: a flood of fresh addresses (each new, one runaway each) otherwise
     *  held every worker a newcomer may take, each for a whole limit, and a new reader's `ls /`
     *  waited minutes behind them (issue 25, adversary F1). Stopping changes no answer: the
     *  command runs again later from its start, with its full limits (the shell is read-only
     *  and starts fresh each call). 100 ms is ~20 times what `ls /`, `cat` or `head` of a page
     *  use, so a reader's quick command ends before anyone may stop it. */
    trialCpuMs: 100,
    /** Wall time after which a new caller's first command may be stopped as above, only where
     *  thread CPU cannot be read (no /proc). Where it can, CPU alone decides: by the wall, at
     *  load ~50 a new reader's `ls /` ran past 1 s, was stopped as a trial, and waited 30 s behind
     *  a flood's second runs (issue 25, bench row (h)); a jq's thread's CPU is read too now
     *  (`ShellWorkerData.helperCpu`). */
    trialMs: 1_000,
    /** Workers a command of a new caller that was stopped so (it runs again, unstoppable now)
     *  must leave free: the trusted callers' one, and two for newcomers' first commands. So a
     *  flood of fresh callers holds at most half of the pool of six with its runaways' second
     *  runs, and a newcomer finds one of the others within one trial (`trialCpuMs`). */
    requeuedReserve: 3,
    /** CPU (a command's worker thread's and its jq threads') past which a command that answered
     *  makes its caller heavy, as a command stopped at a limit does: it held a worker as long. A
     *  reader's commands use milliseconds (`ls /`, `cat`, `rg` over a page: 1-20 ms), the
     *  heaviest searches within the work budget on spree 1-2.5 s (docs/measurements.md, "CPU
     *  limit"); 1 s is ten trials (`trialCpuMs`). A caller so marked loses only the reserved
     *  workers, for `heavyForMs`; answers never change. */
    heavyCpuMs: 1_000,
    /** How long a caller stays heavy after its last long hold: heaviness wears off (an address
     *  shared by many readers is not marked for good because one ran a runaway once), and an
     *  attacker's address holds one runaway's worth of the reserve per this time at most. */
    heavyForMs: 10 * 60_000,
    /** Callers remembered in each standing (`CallerStanding`: heavy, trusted): a few dozen bytes
     *  each; an attacker who cycles through more addresses than this is also past what the
     *  reserves can hold (docs/security.md). */
    rememberedCallers: 4_096,
    /** Workers in a row that ended before they were ready (a broken install, no memory): then
     *  the calls waiting are answered with the reason instead of starting workers forever. */
    maxBootFailures: 3,
    /** A shell worker idle this long is stopped (one stays warm): a burst can start the whole
     *  pool, and `--workers N` has N pools. A minute keeps the pool through an agent's run of
     *  calls; restarting one costs ~200 ms of CPU (loading the shell's code). */
    idleMs: 60_000,
    /** The pool of a stdio server (`serve` without `--http`): one client, so no places are kept
     *  between callers (`reserveWorkers` 0), and two workers, so that while one command is stuck
     *  in synchronous code until its limit the agent's next read still runs (the client may run
     *  `maxRunningPerCaller` at once). No spare: the second starts when a command needs it
     *  (~0.2-0.5 s), not beside the first command, which it slowed on a busy machine. */
    stdio: { workers: 2, reserveWorkers: 0, spareWorkers: 0 },
    /** The pool of `svc-mcp preview`: one person (and the agents they try) reads it, as over
     *  stdio; a command runs in a worker so that no command can stall the pages (issue 25: a
     *  doubling sed in the preview's own thread stopped it answering pages, and it grew to 4.3 GB). */
    preview: { workers: 2, reserveWorkers: 0, spareWorkers: 0 },
    /** The pool of `svc-mcp fs`: one command, so one worker. In a worker, not in the CLI's own
     *  thread, so that a single step the work count cannot see (a huge regex search, a native
     *  sort) still ends at the thread's CPU limit (adversary round 28: in-thread, a regex search
     *  whose cost grows with its pattern ran for 7 minutes and Ctrl-C could not stop it). */
    oneShot: { workers: 1, reserveWorkers: 0, spareWorkers: 0, warnOnEnd: false },
  },
  jq: {
    /** Memory of one jq run (its WebAssembly instance's linear memory, outside the JavaScript
     *  heap): 256 MB, the maximum jq.wasm itself declares. jq holds its input as values of
     *  ~10x the text's size, so a whole 16 MB spec fits; a filter that builds without bound
     *  (`[range(1e9)]`) stops there with exit 134 instead of taking the process's memory. */
    maxMemoryBytes: 256 * 1024 * 1024,
  },
  search: {
    /** Spec: pageSize is 1..50, default 10. */
    minPageSize: 1,
    maxPageSize: 50,
    defaultPageSize: 10,
    /** Longest query accepted; longer strings are pasted documents, not questions. */
    maxQueryLength: 1_000,
    /** Pages to analyse from which a build analyses them in worker threads (`AnalysisFeed`):
     *  starting a worker costs tens of milliseconds, a small site's whole build. From 500 (or
     *  2 M characters) a 900-1,000-page site's start was no shorter side by side on 2 cores, with
     *  two workers or one (docs/measurements.md, round 62). */
    analysisWorkersFrom: 2_000,
    /** Or characters of bodies to analyse, from which the same: a versioned site of 24,920 pages
     *  has 1,411 distinct texts, fewer than `analysisWorkersFrom`, but 12 M characters whose
     *  analysis was ~1.2 s of its start's main thread (issue 22); spree's 5.5 M stay on it. */
    analysisWorkersFromChars: 8_000_000,
    /** Characters of saved pages from which their analysis is made in a worker thread while the
     *  last snapshot serves (`DocsRuntime.analyseSaved`): ~1.4 ms of the answering thread per
     *  1,000 characters otherwise; a worker's start costs tens of milliseconds of wait. */
    savedAnalysisFromChars: 256_000,
    /** Analysis workers at most, whatever the cores (each holds its own vocabulary). */
    analysisWorkersMax: 4,
    /** Bodies a worker is sent at once (one message each way), and how many may be analysed
     *  ahead of the page being indexed: the analyses waiting hold their term ids. */
    analysisBatch: 32,
    analysisAhead: 512,
    /** Characters of sections an analyser keeps the analysis of, for the same sections in later
     *  bodies (`KnownSections`): a site's copies of a page share most of their sections and come
     *  a copy of the site apart (the 50,000-page bench site's copies are 3.4 M characters, half of
     *  them to each of two workers). ~2 bytes a character and the sections' term ids, per
     *  analyser, while a build runs. */
    knownSectionChars: 6_000_000,
    /** Identifiers one page is recorded as documenting (`documented-identifiers.ts`): a reference
     *  table of thousands of rows (error codes, variables) keeps its first ones; a page of one
     *  topic documents tens. Bounds the index's memory for them, a short string each. */
    maxDocumentedIdentifiers: 1_000,
    /** Characters of section text shown per hit: enough to judge relevance, not to replace `cat`. */
    snippetChars: 320,
    /** Distinct query terms scored, the most informative kept (`kept-terms.ts`). Questions have a
     *  handful (at most 12 among the 420 distinct questions of the ranking fixture); a pasted log
     *  or 500 single letters has hundreds, and each costs a pass over its postings. The bounds of
     *  a query's work are counts, never times (issue 25): the same query gets the same answer on
     *  any machine. */
    maxQueryTerms: 32,
    /** Query terms looked up by edit distance, rarest first: each visits every dictionary term of
     *  about its length (tens of thousands on a large site). A question has a typo or two. */
    maxTypoScans: 8,
    /** Dictionary terms added to a query by prefix and typo matches, over all its terms (each term
     *  has its own bounds too, `RANKING.maxPrefixExpansions`, `maxFuzzyExpansions`): each one is a
     *  posting list more for ranking to read. */
    maxQueryExpansions: 160,
    /** Longest query word split into two words the site writes (`compoundParts`): each split
     *  point stems both halves, so a 1,000-letter word cost a thousand stems of hundreds of
     *  letters; German compounds are well under this. */
    maxCompoundLength: 64,
    /** Distinct words a query's neighbouring words joined make that the site writes (`data base`
     *  reads `database` too, `joinedWords`), first written first, each added once to each of its
     *  two words. Questions of the ranking fixture have at most 2; 500 single letters made a
     *  joined 2-letter form of nearly every neighbouring pair, added again at every repeat
     *  (~1,000 posting lists more, uncounted by `maxQueryExpansions`). */
    maxJoinedWords: 8,
    /** Snippet text inlined into one page for indexing (see `includes.ts`): a page shows a few
     *  snippets of a few KB; a snippet that includes itself through others must stay bounded. */
    maxInlinedBytes: 256 * 1024,
    /** Candidates ranked when unfiltered results fold the same page in several versions into
     *  one: at least twice the page (each page could have a twin in it) and never fewer than
     *  this, so that a short page finds the same twins a long one does; ranking 20 pages instead
     *  of 10 costs a few hundredths of a millisecond. */
    minTwinCandidates: 20,
    /** Other versions listed under a folded result ("also in"), best first; the rest are counted
     *  (`moreVersions`). A site copying every page into 35 releases would otherwise print 34
     *  links under each result, and an agent reads them all before the next page. */
    shownVersionTwins: 2,
    /** Other languages listed under a result folded across languages; the rest are counted
     *  (`moreLanguages`). Most multilingual sites have 2-5 languages; some have 20. */
    shownLanguageTwins: 4,
    /** Variants indexed per page for readers who may read only some of the files it inlines
     *  (`variants.ts`): one per distinct outcome, two for a page with one restricted snippet.
     *  Past this many (a page inlining many snippets under many different rules), a reader
     *  matching none of them gets its own when it first searches (`maxReaderVariants`): the
     *  limit bounds the work of indexing, never what a reader gets. */
    maxPageVariants: 16,
    /** Variants of one page made for readers as they search, past `maxPageVariants`: a few
     *  hundred bytes to a few KB each. Past this many the oldest is dropped, and made again
     *  when one of its readers searches (their answers unchanged, only later). */
    maxReaderVariants: 64,
    /** Reader classes whose statistics are kept (`reader-classes.ts`): each costs a few hundred
     *  KB on a site of a thousand pages, and sites have a handful of group combinations. */
    maxReaderClasses: 16,
    /** Section texts kept for hits (`search-index.ts`): a hit's text is rebuilt from its page's
     *  body otherwise; a few thousand sections are a few MB, and popular answers repeat. */
    cachedSectionTexts: 4_096,
    /** Searches whose hits are kept for a repeat of the same request by the same class of reader
     *  (`search-index.ts`), until the site changes: agents ask the popular questions again and
     *  again. Ten hits are a few KB, so this is a few MB at most. */
    cachedResults: 1_000,
    /** Kinds of search (reader class, version, language) whose scorable pages are kept as one
     *  flag per page (`search-index.ts`), until the site changes: a byte per page each, 10 KB on a
     *  site of 10,000 pages; a kind not kept costs a pass over the pages at its next search
     *  (~0.5 ms at 10,000 pages, 0.02 ms on spree's 1,100). */
    cachedScopes: 64,
    /** Guides whose endpoint page (`endpoint-companions.ts`) is kept per kind of search, until the
     *  pages change: a few dozen bytes each, and only the guides that reach the first hits are
     *  asked; one not kept costs a look at the endpoint pages named by its path's words. */
    cachedCompanions: 8_192,
  },
  load: {
    /** Pages larger than this are skipped with a warning: a 5 MB MDX file is generated junk, and
     *  indexing it would slow every query. */
    maxPageBytes: 2 * 1024 * 1024,
    /** A page file up to this size is read to see whether it fits `maxPageBytes` once its inline
     *  `data:` payloads are cut (notebook exports with their output images: langchain's are 3 to
     *  4 MB); larger ones are not read at all. */
    maxPageFileBytes: 16 * 1024 * 1024,
    /** API spec files can be large (Discord's is 1.2 MB); beyond this they are not mounted. */
    maxSpecBytes: 20 * 1024 * 1024,
    /** Files changed within this window are reloaded together (editors write in bursts); also
     *  how often files still settling (`writeSettleMs`) are checked. */
    watchDebounceMs: 40,
    /** How long a changed file (page, snippet, spec, ignore file, docs.json) must stay unchanged,
     *  by its events and its stat, before it is applied: a file written in place in parts
     *  (`cmd > file`, a script's `echo`s, a slow copy) is applied whole, not its first part with
     *  its restrictions not yet written (adversary round 57 F2: a pause of 50 ms to 1 s between
     *  parts served the part). 300 ms covers a shell's pauses between writes of one redirect and
     *  adds less than a human notices to an edit's delay; a pause longer than this is still seen
     *  between the parts: publish restricted content with a rename (docs/repository.md). */
    writeSettleMs: 300,
    /** The search index is built after start-up in slices of this much time, with requests
     *  answered between them (`DocsRuntime`): long enough that the pauses cost nothing (a few
     *  microseconds each), short enough that `tools/list` during the build waits no longer. */
    indexSliceMs: 10,
    /** A reload (a docs.json edit, a folder of thousands of pages removed) builds the new
     *  snapshot aside in slices of this much time, callers answered from the last good one between
     *  them (`ReloadSlices`): at 25,000 pages its reads alone held every caller 1-2 s (adversary
     *  F5). As `indexSliceMs`: the pauses cost microseconds, a caller waits a slice at most. */
    reloadSliceMs: 10,
    /** While the search index of a site of more pages than this is built, a progress line on
     *  stderr at each `progressSteps`-th part of its pages: a server that takes seconds to be
     *  ready says so rather than looking hung. Counted in pages, never timed, so that what stderr
     *  says does not depend on how busy the machine is. */
    progressPages: 5_000,
    progressSteps: 10,
    /** A load of more page files than this says so on stderr, and so does the search index built
     *  from them ("search ready: ..."): a site this large takes long enough to be noticed. */
    announcedPages: 500,
    /** Values a page's front matter may hold read as a tree, each YAML alias copied out where it
     *  is used (`expanded-size.ts`): js-yaml keeps an alias as one shared object, but the
     *  readers after it (page metadata, the cache's encoder, JSON of a page's metadata) walk it
     *  as a tree, and 500 bytes of nested aliases (ten levels of nine references) stood for
     *  billions of values: a start stalled for minutes and ignored signals (issue 25,
     *  adversary round 21). Real front matter holds tens of values; a page over this is skipped
     *  as invalid front matter, as a YAML error is. */
    maxFrontMatterValues: 10_000,
    /** Text counts toward `maxFrontMatterValues` a value per this many characters: 4,000 aliases
     *  of one 100,000-character string (a 116 KB page) made a 400 MB site cache and 0.9 GB of
     *  memory (adversary round 22). So aliased front matter reads out at most ~1 MB of text. */
    frontMatterCharsPerValue: 100,
    /** Page files from which a first load reads them in a worker thread ahead of it
     *  (`PageReadAhead`): starting one costs tens of milliseconds; reading 25,000 files took
     *  the load's thread about a second (issue 22). */
    readAheadFrom: 2_000,
    /** Files a page-reading worker answers at once (one message each). */
    readAheadBatch: 256,
    /** How long the loading thread waits for a stat the thread has not answered before taking
     *  the rest itself (a thread that never ran), and in slices of how long (its `error` event
     *  needs the event loop a blocked wait does not run). */
    statAheadWaitMs: 10_000,
    statAheadWaitSliceMs: 50,
    /** Bytes of distinct texts a page-reading worker keeps to tell later copies by (a copy is
     *  sent as the number of its first file): a versioned site's 1,411 texts are ~13 MB; past
     *  this, new texts are sent whole and the load tells their copies itself (`ParsedTexts`), so
     *  50,000 distinct pages do not hold a second copy of the site in the worker. */
    readAheadDistinctBytes: 64 * 1024 * 1024,
    /** Bytes of texts a page-reading worker sends ahead of what the load has taken: reading
     *  outpaces parsing, and 50,000 distinct pages would otherwise wait whole in messages. */
    readAheadWindowBytes: 32 * 1024 * 1024,
    /** Classes of readers whose time one file with restricted parts remembers (`VariantTimes`),
     *  and readers it knows read it: each class is one more variant rendered at every edit of the
     *  file (a pruned spec, a page without some imports), on the thread answering callers. A
     *  site's readers fall in a handful of classes per file (anonymous, a group or two,
     *  everything); a class past this is dated from its bytes in the version before (the least
     *  class, the anonymous reader's, is kept whatever this says). */
    maxTimedClasses: 64,
  },
  variantTimes: {
    /** Files whose reader classes' times a state file keeps across starts (`RememberedTimes`),
     *  the first by path: files with restricted parts are a site's specs and the pages importing
     *  restricted snippets, tens on the sites we know; past it a file is dated at a start as
     *  before (by the file's time), never refused. */
    maxFiles: 2_000,
    /** Files without restricted parts kept whole (a hash and a time: pages and specs, so one
     *  gaining its first restricted part while stopped keeps its readers' times, adversary round
     *  53 F2), the first in the snapshot's order: the largest site we serve has ~50,000 pages;
     *  past it a file is dated as before. */
    maxWholeFiles: 100_000,
    /** Bytes of that file (read and written): a class is ~150 bytes (its rules' keys, a SHA-256,
     *  a time), a whole file ~60 and its path; 16 MiB holds `maxFiles` files of a handful of
     *  classes each and ~100,000 whole files of 70-character paths. A larger file (not ours, or
     *  damaged) is not read, and a start goes on without it. */
    maxBytes: 16 * 1024 * 1024,
    /** How long a write waits for another process's (`--workers`) to end: each holds the file's
     *  lock for one read, merge and write (tens of ms on a 50,000-page site); past it the write
     *  is skipped and said once. */
    lockWaitMs: 5_000,
    /** A lock older than this was left by a process killed while writing: taken over. */
    lockStaleMs: 30_000,
    /** Hashing whole files before a write gives the thread back after this long (a turn of a
     *  big site's first write; ~1 MiB of pages at a time). */
    hashSliceMs: 10,
    /** Wait after a snapshot before the file is written, each new snapshot waiting again (up to
     *  `writeDelayMaxMs`): a branch switch's burst of reloads makes one write; hashing each
     *  class's text (a spec's pruned copies) takes this thread, so not at each save. Written at a
     *  stop too, so a restart loses nothing but a kill's last second. */
    writeDelayMs: 1_000,
    /** The longest a write waits behind a stream of saves. */
    writeDelayMaxMs: 10_000,
  },
  api: {
    /** API pages a load makes (or compares with the last load's, `SpecPageMaker`) before it gives
     *  the thread back for a turn: a saved spec of thousands of operations made them all in one
     *  stretch, while every caller waited (3,000 operations with 60-field schemas: ~0.5 s of it;
     *  a page takes 0.05-0.3 ms). The last snapshot answers callers meanwhile. */
    pagesPerTurn: 64,
    /** Remote spec download budget. Specs are fetched only because docs.json names a URL; a slow
     *  host must not stall startup, and 10 s is generous for a few MB over any real link. */
    fetchTimeoutMs: 10_000,
    /** Largest remote spec accepted (same reason as `load.maxSpecBytes`: Discord's 1.2 MB spec is
     *  large for a real API; 20 MB is a generated dump, not documentation). */
    maxRemoteSpecBytes: 20 * 1024 * 1024,
    /** Other files a remote spec's `$ref`s may fetch from its own host. Real multi-file specs
     *  split into tens of files (one per schema or path group); a spec naming hundreds is not
     *  documentation but a way to make the server fetch on a host's behalf. */
    maxRemoteRefFiles: 100,
    /** Schema nesting rendered on a generated page. Real request bodies nest 3-5 levels; deeper
     *  (or circular) schemas are cut with a pointer to the spec file, which an agent can `jq`. */
    maxSchemaDepth: 6,
    /** Fields listed per schema on a generated page. Discord's largest schemas have ~150 fields;
     *  beyond 300 the page stops being readable and the spec file is the better source. */
    maxSchemaFields: 300,
    /** Variants shown for one `oneOf`/`anyOf`: enough for real unions, bounded for generated ones. */
    maxSchemaVariants: 12,
    /** Characters of a JSON example printed on a page; a longer example is truncated with a note. */
    maxExampleChars: 4_000,
    /** Arrays and objects inside one another in a spec (OpenAPI, AsyncAPI, Swagger), as written.
     *  Real specs nest 14-17 levels (spree's four, alltick's); the schema validators, the `$ref`
     *  resolvers and the YAML writer recurse once or more per level, and a 22 KB spec of 600
     *  nested `properties` overflowed the stack of the 3.0 validator and crashed `check`,
     *  `search` and `serve`. A spec deeper than this is refused (it costs only its pages). */
    maxSpecDepth: 128,
    /** The same once a spec's `$ref`s are replaced (schemas holding schemas through references).
     *  Shared and circular targets count once: real specs reach 17-35 levels (Discord's 35,
     *  spree's admin.yaml 30); a chain of 2,000 schemas each referencing the next overflowed the
     *  resolver's stack. */
    maxResolvedDepth: 256,
    /** Values a spec may hold read as a tree: each YAML alias copied out where it is used, each
     *  `$ref` replaced by what it points to (`expanded-size.ts`). Every reader after the parse
     *  walks it that way somewhere, and 690 bytes of nested aliases ("billion laughs") or of
     *  schemas each referencing the one below nine times stand for billions: the server stalled
     *  for 90 s, then died (issue 25). Real specs hold far fewer: Discord's 1.2 MB spec 2.2
     *  million with its `$ref`s replaced, spree's admin.yaml 0.5 million, the others under
     *  0.1 million (docs/api-reference.md); a spec over this is refused (it costs only its pages). */
    maxExpandedValues: 20_000_000,
    /** Values one generated example (a request body, a response sample) may hold: schemas that
     *  reach each other are cut only where one comes back on its own path, so ten of them, each
     *  with a property of every other, 4.7 KB, made a page take minutes and gigabytes (issue 25).
     *  Real ones hold far fewer: spree's admin.yaml's largest (its `Return` schema) 6,779, Discord's
     *  731, the other shared specs and corpora under 600. A page shows 4,000 characters of one
     *  (`maxExampleChars`), but code samples carry the whole body: at this bound the clique's page
     *  is ~2 MB (at 100,000 it was 10 MB). Past it, objects and arrays come out empty. */
    maxExampleValues: 20_000,
    /** Characters (strings and keys) one data value of a spec is written with: an example, a
     *  default, an enum entry, an `x-svc.metadata` field (`finite-data.ts`). Shared references
     *  can make a 101 KB spec's value stand for 1.6 GB of text, which no writer survives; real
     *  examples are a few KB (a page shows 4,000 characters of one), code samples carry whole
     *  request bodies. Past it the value reads `(cut: value too large)`. */
    maxDataChars: 200_000,
    /** `allOf` parts one schema's merge may take in, at any depth: nine schemas each `allOf` all
     *  nine merged every path among them (9! parts) for one field (issue 25). Real schemas merge
     *  a few (the largest of the shared specs and corpora: see docs/api-reference.md). */
    maxAllOfParts: 1_000,
    /** Schema nodes one generated page may walk, every walker of the page together
     *  (`schema-budget.ts`): field lists, `allOf` merges, example values, the code examples'
     *  request. Each walker had its own bound, paid once per use: eight schemas each with a property
     *  of every other, used by 25 query parameters, made a 28 KB spec's index build take 49 s of
     *  CPU and 3.2 GB (issue 25). Real pages walk far fewer: Discord's largest 2,581 (its HTML
     *  page of POST /channels/{id}/messages), spree's 1,182, the other shared specs and corpora
     *  under 1,000. What a page holds, search indexes: a node is written ~50 bytes a page (an
     *  example's value is written again in each code example's query string or body), so at
     *  20,000 that spec's pages were 1 MB each and the index build still took 11 s of CPU; at this
     *  bound 0.25 MB. Past it the page is cut with a note (`cutNote`), and `check` warns. */
    /** Characters of text (a description, an enum or default written out) that cost a schema
     *  node of the page's budget (`SchemaBudget.takeText`): a page shows at most ~640 KB of them. */
    /** Values of one `enum` a field's notes list before `…` (the spec file holds them all). */
    maxEnumValuesShown: 1_000,
    schemaTextCharsPerNode: 128,
    /** Schema nodes an entry of a list a page writes costs (`SchemaBudget.takeEntry`): a server,
     *  an operation, a message or a message's name, a channel parameter, a protocol's bindings.
     *  Such lists scale with the spec, not with the page, and one list can be written on every
     *  page (an AsyncAPI channel naming no `servers` lists all of them): 1,000 servers on each of
     *  2,000 channel pages were never charged, and `search` took 15-48 s and 500-650 MB (adversary
     *  round 62b). An entry writes ~60-400 bytes (a server with its variables), about ten nodes'
     *  worth; a channel's servers take at most a quarter of the page (`NAMES_SHARE`): at 2,000
     *  a page (`minPageSchemaNodes`) 50 servers. Real pages list a few entries: every page of the
     *  shared specs and corpora is byte-identical with the charge and without. */
    listEntryNodes: 10,
    maxPageSchemaNodes: 5_000,
    /** The same for the pages of one spec its readers read together (`SchemaShares`: the spec's
     *  pages of one access class): each page's share is this over those pages when that is less
     *  than `maxPageSchemaNodes`, so many small operations do not make many pages of
     *  `maxPageSchemaNodes` each (Discord's 242 operations: 4,132 a page). Counted per class, a
     *  cut page's budget tells its readers nothing of pages they may not read (security row 145). */
    maxSpecSchemaNodes: 1_000_000,
    /** A page's share is never below this: a spec of a thousand operations still shows real ones
     *  whole (spree's admin.yaml, 706 operations: 1,416 a page, raised to this; its largest 1,182). */
    minPageSchemaNodes: 2_000,
  },
  cache: {
    /** Disk budget of the parsed-spec cache (`$XDG_CACHE_HOME/svc-mcp/specs`). An entry is about
     *  1.2x its spec (spree's 1.2 MB admin.yaml: 1.4 MB), so this holds a few hundred real specs;
     *  least recently used entries go first. The cache is disposable: deleting it costs one slow load. */
    maxBytes: 256 * 1024 * 1024,
    /** Largest persistent cache of one site (parsed pages and search index, `tools/site-cache.ts`).
     *  Each distinct text is stored once: a 25,000-page versioned site of ~1,400 distinct files
     *  takes 169 MB. A site past this is indexed at every start. */
    maxSiteBytes: 1024 * 1024 * 1024,
    /** Disk budget of all sites' caches; the least recently used go first. */
    sitesMaxBytes: 2 * 1024 * 1024 * 1024,
    /** The cache of a site is written this long after its index is ready (or when the process
     *  ends first): a client's first requests (initialize, tools/list) come in this time, and the
     *  write's slices and memory do not land on them. Soon enough that a client which stops the
     *  server a few seconds after its first answers finds the write done. */
    writeDelayMs: 1_000,
    /** Searches answered put the write off by `writeDelayMs` each (a client's first questions
     *  come at once after ready), up to this long after the index is ready (issue 22). */
    writeDelayMaxMs: 10_000,
    /** The write goes in slices of this long with the thread given back between them: a search
     *  or command that comes meanwhile waits at most about this much for it (the whole write
     *  takes a few seconds of the thread at 25,000 pages; each step is a few milliseconds). */
    writeSliceMs: 10,
  },
  relay: {
    /** Largest request body the playground relay forwards. Playground requests are typed by
     *  hand in a form; 1 MB leaves room for a pasted JSON document and refuses uploads of dumps. */
    maxRequestBytes: 1024 * 1024,
    /** Largest upstream response relayed back. Images, audio and short video clips must fit
     *  (that is what the playground renders); 10 MB is a few seconds of video, not a film. */
    maxResponseBytes: 10 * 1024 * 1024,
    /** Upstream time budget, headers to last byte. Interactive: a person waits for it. */
    timeoutMs: 30_000,
    /** Headers forwarded per request; a form has a handful (auth, content type, a few custom). */
    maxHeaders: 50,
    /** Relay calls one caller (an address, an IPv6 /64, a token) has in flight at once, HTTP and
     *  MCP Apps together. A person presses Send and waits; an app sends one at a time. Each call
     *  can hold an upstream connection 30 s and 10 MB of its answer, and encoding an answer
     *  costs the main thread; 8 calls of 10 MB from one address held another reader's search
     *  5 s (issue 25, adversary round 18 F3). Past it: `429 too_many_relay_requests`. */
    maxInFlightPerCaller: 2,
    /** Relay calls in flight in the server, every caller's together (the primary of `--workers N`
     *  counts for all its workers): 16 x 10 MB is the most upstream answers held at once (160 MB),
     *  and the encoding work they bring is bounded. */
    maxInFlight: 16,
    /** The last places of `maxInFlight`, kept for callers with no relay call in flight: while
     *  others fill the rest, a reader pressing Send for the first time still gets through. */
    newcomerReserve: 4,
  },
  feedback: {
    /** Pages listed in the summary's "most negative feedback": a dashboard's top ten; the rest
     *  are a filter away in the entries table. */
    summaryPages: 10,
    /** Largest request body accepted by the ingestion and PATCH endpoints. The biggest legitimate
     *  body is code-snippet feedback quoting its snippet (`maxCodeChars`, mostly ASCII) plus a
     *  comment; 64 KiB holds both with room, and bounds what an anonymous endpoint buffers. */
    maxBodyBytes: 64 * 1024,
    /** Feedback text. A widget's textarea answer or an agent's report is a few sentences;
     *  5,000 characters is several paragraphs, more is a paste, not feedback. */
    maxCommentChars: 5_000,
    /** The snippet quoted by code-snippet feedback: code blocks in docs are rarely over a few
     *  hundred lines; 40,000 characters (~1,000 lines) keeps every real one whole. */
    maxCodeChars: 40_000,
    /** Page paths: real ones are under 200 characters; 1,024 leaves room for deep versioned
     *  and localized paths while refusing garbage. */
    maxPathChars: 1_024,
    /** A code block's file name (`app/models/user.rb`): a path, so the same order as a page path
     *  but bounded tighter; 255 is the common file-name limit of file systems. */
    maxFilenameChars: 255,
    /** A code block's language tag (`typescript`, `shell-session`); the longest real tags are
     *  about 20 characters. */
    maxLangChars: 64,
    /** RFC 5321 caps a usable e-mail address at 254 characters. */
    maxContactChars: 254,
    /** Spec: the page size is 1 to 100. The default (not given by the spec) is 50: the figure the
     *  hosted platform's own API documents, big enough to triage a day in one page. */
    minPageSize: 1,
    maxPageSize: 100,
    defaultPageSize: 50,
    /** Our cursors are 55 characters; anything much longer is not one of ours, and is refused
     *  before any decoding work. */
    maxCursorChars: 256,
    /** Group commit: entries arriving while a commit is in flight are written together in the
     *  next transaction (one fsync for all). A cap keeps one transaction, and the event-loop pause
     *  it causes, short (~10 ms at the measured insert rate). */
    maxEntriesPerCommit: 1_000,
    /** SQLite page cache of the feedback database, per process (allocated as used). The hot
     *  part of five indexes over a million entries fits in 64 MiB, so pages read by GETs and
     *  modified by inserts stay in memory; the 2 MiB default made bulk inserts spill. */
    cacheKiB: 64 * 1024,
  },
  keys: {
    /** Labels of admin keys and client credentials: read by people in `keys list` and
     *  `credentials list`, one line each, so short. */
    maxLabelChars: 100,
    /** `last_used_at` of an admin key is written at most this often per key: an exact figure is
     *  not worth an fsync on every authenticated read. */
    lastUsedResolutionMs: 60_000,
  },
  bridge: {
    /** Largest MCP request body. A tool call is under 10 KB (commands are capped at 8 KB, a
     *  feedback comment at 5,000 characters); 64 KiB leaves room for a client's metadata. Every
     *  request's body is parsed on the thread that answers everyone, several times on its way:
     *  at 1 MiB, 32 kept-alive connections from 4 addresses sending 827 KB calls (each refused
     *  for an unknown argument, so no call limit counted them) held another caller's `ls /` for
     *  8.7 s (adversary, 2026-11-29); 100 KB bodies held it under 0.93 s. */
    maxBodyBytes: 64 * 1024,
    /** Largest OAuth request (token form, client registration, login form): real ones are under
     *  2 KB; 16 KiB bounds what an unauthenticated caller makes us parse. */
    maxOAuthBodyBytes: 16 * 1024,
    /** How old the redirect-domain list a per-IP 429 reads its CORS headers from may be before a
     *  refusal reads it again in the background (one read at a time): a flood costs the state
     *  store one round trip a minute, and a domain added with `redirect-domains add` gets its
     *  CORS headers on 429s within a minute even if none of its requests was let through. */
    redirectDomainsMaxAgeMs: 60 * 1000,
    /** A session unused this long is closed: an agent between questions comes back within
     *  minutes; an hour keeps its session while bounding memory held by vanished clients. */
    sessionIdleMs: 60 * 60 * 1000,
    /** Open sessions at most, on each endpoint (`/mcp` and `/authed/mcp` apart, so anonymous
     *  callers never push out a signed-in reader's session); beyond this the least recently used
     *  session of the caller holding the most is closed. A session costs a few KB, so 10,000 is
     *  tens of MB, far above any single docs site's concurrent agents. */
    maxSessions: 10_000,
    /** Open sessions of one caller (an address, an IPv6 /64, a token) on one endpoint; past it the
     *  caller's own oldest is closed. An agent holds one; 1,000 leaves room for an office behind
     *  one NAT address, and a flood from one address stops at its own sessions. */
    maxSessionsPerCaller: 1_000,
    /** Characters of a client's `clientInfo` name and version a session keeps (the SDK's server
     *  holds them for the session's life; nothing here reads them): real ones are tens of
     *  characters, and a 60 KB name kept by 10,000 sessions would be 600 MB (adversary round 60 F1). */
    keptClientInfoChars: 256,
    /** How often idle sessions are swept. */
    sessionSweepMs: 60 * 1000,
    /** Open 2026-07-28 `subscriptions/listen` streams per endpoint; one more is answered 503 with
     *  Retry-After. An editor holds one per server; each is an open response and a listener, a
     *  few KB, so the sessions' bound serves here too. */
    maxListenStreams: 10_000,
    /** Open listen streams of one caller (an address, an IPv6 /64, a token) on one endpoint; one
     *  more is answered 429. An editor holds one per server: 64 serves a team behind one NAT
     *  address, and it takes 157 addresses to fill the endpoint's 10,000. */
    maxListenStreamsPerCaller: 64,
    /** Idle 2026-07-28 servers kept for the next request, per reader key (auth setting and
     *  groups) and endpoint: enough for 32 clients calling at once (a server serves one request
     *  at a time), a few KB each. */
    pooledServersPerReader: 64,
    /** Reader keys with idle servers kept: the anonymous reader and the site's group sets; one
     *  more reader past this gets a server per request, as without the pool. */
    pooledReaders: 256,
    /** JSON-RPC messages in one batch POST. Clients send one message, or a handful at start-up;
     *  100 bounds the work one request can queue. */
    maxBatchMessages: 100,
    /** Bytes of answers a batch's messages may reach before no further one runs (each request
     *  left is answered with an error saying so). One answer is at most a page, or an API page's
     *  MCP App (about 700 KB); 100 reads of apps made a 71 MB answer, held in memory until a slow
     *  client took it all (issue 25, adversary F1). At 256 KiB a batch of app reads runs one, as a
     *  call would: under 16 such batches in a row another caller's `ls /` waited p50 314 ms,
     *  against 424 ms under the same reads sent alone (busy 2-core machine). Start-up batches
     *  (lists, pings: a few KB each) are never cut. */
    maxBatchAnswerBytes: 256 * 1024,
    /** State faults (a full disk, the database away) are logged once per episode: a failure after
     *  this long without one opens a new episode (and a new log line). A minute covers a burst of
     *  requests failing together, while a fault that comes back later is reported again. */
    faultQuietMs: 60_000,
    /** Within an episode, a line with the count of refused requests this often: enough to see it
     *  lasting, never a line per request. */
    faultReminderMs: 10 * 60_000,
    /** On SIGTERM, how long answers already started may take before their connections are cut.
     *  The slowest call is a shell command at its 5 s limit plus the worker's 0.5 s grace; 8 s
     *  lets it finish on a loaded machine and leaves 2 s of the 10 s a stop is documented to take
     *  for closing sessions, stores and shell workers (0.6 s measured at load average 13); well
     *  within the 30 s a container runtime waits. */
    drainMs: 8_000,
    /** An idle keep-alive connection is closed after this. Node's 5 s default is shorter than a
     *  load balancer's idle timeout (60 s on AWS, Google and nginx's upstream default is similar),
     *  and the balancer then races our close with its next request (a 502 for its client). */
    keepAliveMs: 65_000,
    /** A connection that has sent no byte of a request this long after it opened is closed: one
     *  that never sends holds a file descriptor, and a thousand of them from one address left
     *  others unanswered (adversary, 2026-11-29). Node's headers timeout starts only with a request. */
    firstRequestMs: 20_000,
    /** From a request's first byte, its headers and its whole body must have arrived within this,
     *  or it is answered `408 request_timeout` and its connection closed (Node's `requestTimeout`
     *  and `headersTimeout`; Node's default of 300 s, checked every 30 s, let a body sent a byte
     *  every 10 s hold a connection 5.5 minutes, and a relay place with it: issue 25, adversary
     *  F1). A deadline on the client's link, not on this machine's speed: the largest body taken
     *  (the relay's 1 MiB) arrives within it at 140 kbit/s, every other (64 KiB at most) at
     *  9 kbit/s. Routes read a body before taking anything scarce, so a slow one holds only its
     *  connection, and for no longer than this. Checked every tenth of it. */
    requestMs: 60_000,
    /** Connections one caller (an address, an IPv6 /64) may hold open at once; behind
     *  `--trust-proxy`, where every connection is the proxy's, its requests being answered at once
     *  (each holds one of the proxy's connections to us). One more is answered 429
     *  `too_many_connections` and closed. A browser opens 6 per server and an editor one or two
     *  (its listen stream, a session's): 256 leaves room for a team behind one NAT address
     *  (`maxListenStreamsPerCaller` is 64), and stops one address at a quarter of a 1,024
     *  descriptor limit (adversary, 2026-11-29: 1,000 connections from one address starved the
     *  rest). Counted by each process of `--workers N`. */
    maxConnectionsPerCaller: 256,
    /** Connections open at once in a process, every caller's together (`ConnectionCap`); behind
     *  `--trust-proxy`, requests being answered at once. One more is answered `503
     *  server_busy` with `Retry-After` and closed. Three quarters of the common 1,024 descriptor
     *  limit (systemd's and many containers' soft limit): the rest stays for the process's own
     *  files (the state database, pages and media read, the relay's and metadata fetches'
     *  sockets), so the bound, not `EMFILE`, decides who is refused. Many addresses together
     *  (4 at the per-caller bound) reach it; `--max-connections` sets it (raise the descriptor
     *  limit with it). Counted by each process of `--workers N`. */
    maxConnections: 768,
    /** The last places of `maxConnections`, kept for callers seen signed in within an hour (a
     *  bearer token verified on `/authed/mcp`; `SignedInCallers`): a flood of anonymous
     *  connections from many addresses does not lock out the readers who signed in. 64 connections
     *  serve dozens of agents (one or two each). */
    signedInReserve: 64,
    /** Before those, places kept for callers holding no connection now: a reader opening its first
     *  connection gets in while callers already connected hold the rest. */
    newcomerReserve: 64,
    /** Open 2026-07-28 `subscriptions/listen` streams in a process, every caller's together
     *  (`QuietStreams`): half of `maxConnections`, and half of whatever `--max-connections` sets.
     *  A stream holds its connection for as long as its client likes, sending only a keep-alive
     *  comment every 15 s, so quiet streams from 74 addresses (64 each, under the endpoint's
     *  10,000) held all 768 places, the reserves too, and every anonymous newcomer was answered
     *  `503 server_busy` for good (adversary round 51 F6). Half leaves the other half for requests
     *  whatever streams are open; one more stream, and a connection finding no place, takes the
     *  place of the oldest stream of the caller holding the most (closed with the spec's graceful
     *  close: its client comes back), so a flood gives way and an editor's one stream does not.
     *  384 serves hundreds of editors (one stream per server each). Counted by each process of
     *  `--workers N`, as the connections are. */
    maxQuietStreams: 384,
    /** Connections refused for `maxConnections` that may wait for their request at once (to be
     *  told why, within `refusedRequestMs`); past it a new one is closed at once, unread, so that
     *  refusing costs no more descriptors than this. */
    maxRefusedWaiting: 256,
    /** Callers remembered as signed in (`SignedInCallers`): a few dozen bytes each. */
    rememberedSignedIn: 4_096,
    /** How long a caller counts as signed in after its last verified request: an access token's life. */
    signedInForMs: 60 * 60 * 1000,
    /** Turns of the event loop a ready search waits while the server is accepting connections
     *  (one was accepted in the turn just past; `CallerTurns.yieldTo`). Node 20 accepts one
     *  connection per turn, and with a search in every turn a flood of new connections (each
     *  refilled as it was answered) kept the kernel's queue of connections full: another caller's
     *  new connection waited behind all of them, a search each, p95 1.6-2.1 s (issue 25). Bounded
     *  in turns (never by the clock), and a turn's length is the flood's to stretch (page renders
     *  made turns of 0.3-0.5 s: adversary round 51 F2), so both bounds are small. `inARow`: 8 turns
     *  before each search starts, so connections are accepted 9 times as fast as searches run
     *  while a flood's searches queue (the order-based test of issue 25 holds with 8, not with 4).
     *  `inAll`: one search waits at most 32 turns for connections whatever is ahead of it (before,
     *  64 turns in a row restarted for every search, so a search behind others waited 64 each). */
    searchTurnsYieldedToConnections: { inARow: 8, inAll: 32 },
    /** Connections of one caller (an address, an IPv6 /64) read or being answered at once; its
     *  further new connections wait accepted and unread, in order, until one is answered
     *  (`CallerReading`). Accepted, they are out of the kernel's one queue of connections to
     *  accept, where a flood's (refused and reopened as fast as they were answered) kept another
     *  caller's new connection waiting 1.5-3.5 s (issue 25). 8: as many as a caller's preview
     *  searches held (`maxPreviewCallsHeldPerCaller`), so a flood waits rather than being refused;
     *  a browser opens at most 6 connections to a host. Not applied behind `--trust-proxy`. */
    maxConnectionsReadPerCaller: 8,
    /** The longest a connection waits unread for its caller's turn: then it is read whatever its
     *  caller holds. A backstop: no count decides alone that a connection is never read. */
    unreadConnectionMs: 10_000,
    /** A connection past its caller's bound has this long to send its request (to be told why it
     *  is refused) before it is closed unanswered: a client sends its request as soon as it has
     *  connected, and refused connections must not hold descriptors for `firstRequestMs`. */
    refusedRequestMs: 2_000,
    /** An answer whose client takes none of it for this long is ended and its connection closed:
     *  a client that stops reading held a medium's transfer place (and the file) for good
     *  (adversary, 2026-11-29), and an event stream's unread notifications piled up in memory.
     *  Progress is the socket taking what was written (up to a medium's 256 KB piece), so a client
     *  slower than about 4 KB/s is cut too; a minute lets a browser that pauses a video's download
     *  for its buffer pick it up again. */
    stalledWriteMs: 60_000,
    /** Past `stalledWriteMs`, the least average rate an answer must be taken at (bytes a second):
     *  an answer is ended once its client has had `stalledWriteMs` plus a second per this many
     *  bytes handed to it. The stalled-write cut sees progress in every piece taken, so a client
     *  reading a 71 MB batch answer at 16 KB/s held it in memory for over an hour (issue 25,
     *  adversary F1). 8 KB/s (64 kbit/s) is below any link an agent runs on; an answer the size of
     *  one MiB gets three minutes. Event streams are not timed. */
    answerMinBytesPerSec: 8 * 1024,
    /** Bytes of one caller's answers (an address, an IPv6 /64) the process holds unread at once:
     *  past it, the caller's next answer is refused (429 `too_many_unread_answers`) until it reads
     *  them (`CallerAnswerBytes`). An answer handed whole is held until the kernel has taken its
     *  last byte, so one caller whose many connections read slowly, or not at all, made the process
     *  hold an answer per connection (issue 25). The kernel takes the first 2-4 MB of each itself
     *  (loopback, measured), so a reader of one large page holds little here; 8 MiB is a few of the
     *  largest answers (an MCP App is ~700 KB) and, at the per-caller bound of 256 connections,
     *  one caller's unread answers stay at megabytes, not gigabytes. Counted by each process of
     *  `--workers N`. */
    maxUnreadAnswerBytesPerCaller: 8 * 1024 * 1024,
  },
  serve: {
    /** `serve --http --workers N` at most: each worker holds the site and its index (tens to
     *  hundreds of MB on a large site); past the cores, more workers only share them. */
    maxWorkers: 64,
    /** Replacement workers in a row that may exit before they serve: past this the start is
     *  broken (the docs folder went away, memory is short), and restarting in a loop hides it. */
    maxFailedStarts: 3,
    /** Connections the primary holds while no worker can take one (every worker restarting after
     *  a crash): handed to the first that serves. Past this a new one is closed at once (its
     *  client retries) rather than held without bound; each held is a descriptor of the primary's. */
    connectionsWaitingForWorker: 256,
    /** How often the primary says that accepting a connection failed (EMFILE: out of
     *  descriptors), while it goes on failing: once a minute, not once a connection. */
    acceptErrorLogMs: 60_000,
    /** On stop, past the drain time, how long a worker may take to close its stores and exit
     *  before the primary ends it. */
    stopMarginMs: 5_000,
    /** The young generation of each worker process, in MB per semi-space (V8's
     *  `--max-semi-space-size`; its default is 16). A search allocates short-lived scores and
     *  snippets by the megabyte, so at 16 MB a worker scavenged every dozen distinct questions and
     *  the copying of what was still alive cost CPU both workers share (busy-machine A/B in
     *  docs/bridge.md). Up to three times this is reserved per worker, committed as it grows. Also
     *  the least size (issue 23): V8 shrank an idle worker's young generation to 16 MB and took
     *  thousands of calls to grow it back, collecting several times as often meanwhile. 32, not
     *  the 64 it was: two semi-spaces of 64 MB were 128 MB resident in every worker, what kept a
     *  worker serving 50,000 pages over 2 GB (issue 22), and at 32 a worker served the same
     *  distinct questions at the same CPU a call and tail (docs/measurements.md, 2026-12-04). */
    workerSemiSpaceMb: 32,
    /** glibc's malloc: the size from which an allocation gets pages of its own (mmap), given to
     *  each worker process as `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=...`. 128 KB is glibc's
     *  starting figure; fixed here because glibc otherwise raises it to the size of each large block
     *  freed (up to 32 MB), after which the load's and a command's buffers of that size came from
     *  the process's main heap, whose freed middle glibc never returns (issue 22: at 50,000 pages
     *  a worker's main heap held 227 MB after the load, 172 MB with this, for the same answers;
     *  docs/measurements.md). */
    workerMmapThresholdBytes: 128 * 1024,
  },
  rateLimits: {
    /** Spec "Limits": every figure is per hour. Windows are clock hours (UTC). */
    windowMs: 60 * 60 * 1000,
    /** Spec: per user (IP address), queries to the MCP server: 5,000 requests per hour. */
    perIp: 5_000,
    /**
     * The hourly `perIp` comes back evenly over the hour, one request at a time (`IpPace`), and
     * an address may hold at most a fifth of it (1,000 of 5,000) to spend at once. Without it an
     * address spent its 5,000 at once, and twenty did so together, ~500 cheap GETs a second,
     * slowing others' searches 30 times (adversary round 51 F5); now after their bursts (40 s
     * at that rate) they send 28 a second in all. A fifth, not less: one MCP client's sessions of
     * tool calls made over 250 requests within a minute (test/bridge/leak.test.ts), a page opened
     * is tens of requests, and an office behind one address opens many; a twentieth refused them.
     */
    perIpBurstDivisor: 5,
    /** A burst is at least this (a site owner's `--rate-limit ip=300` still opens ten pages at once); a limit at most this is not paced. */
    perIpBurstMin: 100,
    /** Addresses whose pace is remembered (a partly spent burst, ~100 bytes each); one forgotten starts with a full burst. */
    pacedAddresses: 100_000,
    /** Spec: search / query docs filesystem, per documentation site: 10,000 per hour each. */
    search: 10_000,
    filesystem: 10_000,
    /** Spec: the authenticated tools, per documentation site: 5,000 per hour each. */
    authedSearch: 5_000,
    authedFilesystem: 5_000,
    /** Each caller's reserve of a per-site tool limit is the limit divided by this (200 of
     *  10,000, 100 of 5,000), charged once the site's count is spent (`caller-reserve.ts`): an
     *  agent's busy hour of reading is some dozens to a couple of hundred calls, so readers go on
     *  answering whoever spent the site's budget, while a crowd of addresses adds only this much
     *  each (every call of theirs also counts against the per-IP 5,000). A limit under 50 (a
     *  test's, or a site owner's strict cap) has none. */
    callerReserveDivisor: 50,
    /** Feedback entries one IP address may add per hour (anonymous ingestion). A reader rates a
     *  page or leaves a comment a few times an hour; 100 leaves room for an office behind one
     *  address, while a script can no longer fill the database (the per-IP request limit alone
     *  would let it add 5,000 entries an hour). */
    feedbackEntries: 100,
    /** Bytes of feedback (the stored submission's JSON) one IP address may add per hour. A rating
     *  is ~60 bytes and a comment well under 1 KB; 1 MiB is 100 generous entries, or a dozen
     *  code-snippet reports quoting long snippets, and bounds disk growth per address to
     *  24 MiB a day where entries alone would allow 100 x 64 KiB. */
    feedbackBytes: 1024 * 1024,
    /** Playground relay requests one IP address may send per hour. A person trying endpoints
     *  sends one every few seconds at the most, and not for an hour; each relayed request can
     *  hold an upstream connection 30 s and pull 10 MB, so 300 bounds what one address can
     *  make this server send to an API (and fetch from it) at 3 GB an hour. */
    relay: 300,
    /** Units a process takes at once from a shared counter (PostgreSQL state, or the primary of
     *  `--workers`) and spends without asking again (`leasing-limiter.ts`): one round trip per 64
     *  calls instead of one per call. What one process holds unspent may be refused to another,
     *  so a limit can refuse at most this many calls per process early, plus `leaseRefillAt`
     *  (never let one more pass). */
    leaseUnits: 64,
    /** Units left of a process's block when it asks for the next, so that calls go on spending
     *  while the store answers and none waits for it (the round trip is off every call's path):
     *  16 calls cover a 20 ms round trip at 800 calls/s a process. A process then holds at most
     *  `leaseUnits + leaseRefillAt` (80) unspent. */
    leaseRefillAt: 16,
    /** Units that must remain of a limit after a lease for it to be granted: the last 4,096 of
     *  every limit (and the whole of a smaller one, as the tests' and the feedback budgets) are
     *  decided call by call in the shared store, exactly. */
    leaseHeadroom: 4_096,
  },
  oauth: {
    /** Access tokens live an hour: short enough that a leaked one expires soon, long enough that
     *  an agent refreshes a handful of times a day. */
    accessTokenTtlSec: 60 * 60,
    /** Refresh tokens rotate on every use; an unused one lapses after 30 days, so a forgotten
     *  laptop's login ends by itself. */
    refreshTokenTtlSec: 30 * 24 * 60 * 60,
    /** RFC 6749 4.1.2: authorization codes should live at most 10 minutes; one is plenty for a
     *  redirect that completes in a second. */
    authCodeTtlSec: 60,
    /** Redirect URIs per registered client: tools register one or two. */
    maxRedirectUris: 10,
    /** Failed sign-ins per account per hour before the login page refuses for the rest of the
     *  hour: far above a person's typos, far below what guessing a password needs. */
    maxFailedLoginsPerHour: 20,
    /** Password checks (scrypt) running at once over every sign-in form (`PasswordTurns`): Node
     *  runs them on its pool of four I/O threads, which also reads files; one at a time leaves
     *  three to the reads and a core to everything else, and still checks 10-20 sign-ins a
     *  second, more than people sign in to a docs site (adversary round 66 F1). */
    passwordChecksAtOnce: 1,
    /** Sign-ins one caller (an address) may have being checked or waiting at once; one more is
     *  answered 429. Callers take turns, so one caller's many wait for their own, not others';
     *  this only bounds what one holds (a few people behind one NAT stay far under it). */
    passwordChecksPerCaller: 64,
    /** Largest client metadata document read (CIMD). The draft suggests 5 KB: a document names a
     *  client, a few URLs and redirect URIs; anything bigger is not one, or is meant to tire us. */
    maxMetadataDocumentBytes: 5 * 1024,
    /** Time to fetch a metadata document, connect to last byte. A person waits on the sign-in
     *  page meanwhile; a static JSON file answers in well under a second from anywhere. */
    metadataDocumentTimeoutMs: 5_000,
    /** How long a document is reused when its answer says nothing about caching: short, so a
     *  client that fixes its redirect URIs is not refused for long. */
    metadataDocumentDefaultTtlMs: 5 * 60 * 1000,
    /** Longest a document is reused whatever its `Cache-Control` says (SEP-991 recommends at
     *  most 24 hours), so a client that changed hands is read again within a day. */
    metadataDocumentMaxTtlMs: 24 * 60 * 60 * 1000,
    /** Documents kept in memory (least recently used go first): each is at most 5 KB, so the
     *  cache stays under 5 MB however many clients an attacker names. */
    metadataDocumentCacheEntries: 1_000,
  },
  web: {
    /** A site sign-in (the session cookie of the API pages) lasts 12 hours: a working day of
     *  trying endpoints, and a cookie left on a shared computer ends by the next morning. */
    sessionTtlMs: 12 * 60 * 60 * 1000,
    /** Sessions kept in memory at once (the oldest go first): each is a hash and a name, so
     *  10,000 stay under a few MB however many sign-ins a password sprayer manages. */
    maxSessions: 10_000,
  },
  preview: {
    /** Rendered pages kept for a repeat (`PageRenders`). A page's HTML is tens of KB (the longest
     *  real pages a few hundred); 200 cover every page an author moves between while editing, in
     *  a few MB, and rendering a page again costs tens of milliseconds, not seconds. */
    renderedPages: 200,
    /** Render workers (`RenderPool`): pages are parsed off the thread that answers everyone
     *  (issue 25: a page just under the markup limits takes seconds of CPU). Two, so that while
     *  one renders a slow page another reader's page still renders; rendered pages are kept
     *  (`renderedPages`), so workers render each page version once. */
    renderWorkers: 2,
    /** Workers a caller already rendering a page may not take (`FairQueue`'s reserve): one of
     *  the two stays for callers with nothing rendering. The preview (one person) keeps none. */
    renderReserve: 1,
    /**
     * Render starts the pool counts back (`FairQueue`'s `recentStarts`): callers who sent less
     * text to render in the last 256 starts go first, and one who sent more than half as much as
     * a caller rendering now may not take the reserve (weighed by text since adversary round 65
     * F3: by pages, a reader's four small ones outweighed a flooder's three 40x40 tables). Twenty addresses each keeping one slow
     * first render in flight (adversary round 51 F3) start one page in twenty each, level (12
     * or 13 of 256): none of them takes the reserve, and a newcomer's page, or that of a reader
     * who rendered at most half as many, starts at once. Over 256 starts, because it takes
     * about that many addresses each with a page in flight before their counts fall to none (new
     * again, so the reserve is theirs too); even then a caller who started less goes first.
     */
    renderRecentStarts: 256,
    /** Callers whose last render start is remembered beyond those (strings of an address: ~100 KB). */
    renderRememberedCallers: 4_096,
    /** Render starts of others a caller's waiting page may be passed over by (`FairQueue`'s
     *  `passedOverAtMost`), then it goes next: four pages a worker at most, whoever sends them
     *  from however many addresses (adversary round 52 F5). Counted, never timed. */
    renderPassedOver: 8,
    /** Pages one caller may have rendering or waiting at once; one more is answered 503. A
     *  browser restoring a dozen tabs stays under it; a client asking for every slow page of a
     *  site at once waits for its own. */
    maxRendersPerCaller: 16,
    /** A render running longer ends with its worker, and the page is answered 503. A backstop:
     *  the markup scans bound a page's cost by its text (the costliest page they let through,
     *  a table of 9,409 cells, took 2.0 s of CPU on a 2-core machine at load 30), and real pages
     *  render in milliseconds; 30 s leaves a machine many times over-committed room. */
    renderTimeMs: 30_000,
    /** Heap of one render worker: the costliest page the scans let through peaks at ~150 MB
     *  (docs/measurements.md); a page that needs more ends its worker, not the server. */
    renderWorkerHeapMb: 512,
    /** A render worker idle this long is stopped, all but one (restarting one costs ~0.3 s of
     *  CPU: loading the parser and the highlighter). */
    renderIdleMs: 60_000,
    /** Readers' navigation trees kept (one per reader class and snapshot): a handful of classes
     *  read a site; a tree of a thousand pages is a few hundred KB. */
    navigationTrees: 32,
    /** Live-reload streams open at once per process: an open tab holds one; past this the oldest
     *  stream of the caller holding the most is ended (its tab reconnects), so tabs left open
     *  cannot hold the server's memory, and no caller's tabs push out another's. */
    maxReloadStreams: 1_000,
    /** Live-reload streams one caller (an address, an IPv6 /64, a token) may hold open; one more
     *  is refused with 429. A person has a few preview tabs open (a browser opens at most six
     *  connections to one host over HTTP/1.1 anyway); 32 serves a team behind one NAT address, and
     *  it takes 32 addresses to fill the process's 1,000. */
    maxReloadStreamsPerCaller: 32,
    /** A comment line on each live-reload stream this often: proxies and load balancers close a
     *  connection idle for 60 s, and a dead client is noticed when the write fails. */
    reloadHeartbeatMs: 25_000,
    /** Page weight budget, checked by a test: the preview's script and style sheets (minified,
     *  before compression), which every page loads. Pages are read on laptops over loopback, but
     *  the same pages are served by `serve --http` to readers on slow links. */
    maxScriptBytes: 24_000,
    maxStyleBytes: 24_000,
    /** Deepest nesting of one kind of markup (block quotes, lists, tags, emphasis, brackets) a
     *  page may have and still be parsed as MDX for its HTML: real pages nest under a dozen
     *  levels, while the parser's time grows with the square of the depth (3,000 nested emphases
     *  took 18 s) and its tree builders recurse once per level (past a few thousand, the stack
     *  overflows). Deeper, the page is shown as plain text and `check` warns. */
    maxMarkupNesting: 100,
    /** Characters the MDX parser may re-read looking for the end of code spans that never close
     *  (`markup-cost.ts`), summed over a page. Real pages re-read 8,281 at most (the 1,303 pages
     *  of the shared corpora); a page of backtick runs of every length re-reads billions. */
    maxCodeSpanRereads: 2_000_000,
    /** Steps to pair a page's emphasis runs and brackets, counted as the square of each
     *  paragraph's number of them: the parser pairs them by walking back over those still open,
     *  so its time grows with that square (30,000 unclosed links `[a](`: 7.4 s). One paragraph
     *  of 1,000 marks; real paragraphs hold 383 at most (the shared corpora). */
    maxPairingSteps: 1_000_000,
    /** Table cells in a page: each is parsed as text of its own, at 0.1-0.2 ms a cell (a
     *  300 x 300 table: 7.7 s; 9,409 cells, under this limit: 2.0 s of CPU on a busy 2-core machine). Real pages hold 2,799 at most (the shared corpora). */
    maxTableCells: 10_000,
    /** A page past a markup limit (`costlyMarkup`) has its code blocks found by the parser, inline
     *  markup off, only up to this size, this many lines and this many `|`: that parse costs in
     *  proportion to the text (an 80 KB page of 2,900 lines with a long JSON dashboard: ~0.1 s of
     *  CPU) but slowly per line, per level of nesting and per table cell (116,000 lines of
     *  `> - [a](`, 512 KB: 9 s; 2,000 lines nested 15 deep: 7.5 s;
     *  40,000 lines `a | b`: 7.9 s; a 300 x 300 table: 5.1 s). Real pages hold at most 2,799
     *  table cells. Past any, the page is counted with its code, as before: at worst shown as
     *  text. */
    maxCodeScanBytes: 256 * 1024,
    maxCodeScanLines: 6_000,
    maxCodeScanPipes: 3_000,
    /** Lines times the square of one more than their nesting (`costlyMarkup`'s `scannable`);
     *  nested two or more deep, lines starting a block quote or an item times it, a quarter of it. */
    maxCodeScanWork: 40_000,
    /** Largest image or video the preview serves from the repository: screenshots and short
     *  clips are a few MB; a larger file is a download, not part of a page. */
    maxMediaBytes: 50 * 1024 * 1024,
    /** Media of one caller (an address, an IPv6 /64, a token) being sent at once: a page's
     *  images load 6 at a time over HTTP/1.1 (a browser's connections per host); a proxy speaking
     *  HTTP/2 may ask for more, which then wait their turn (`maxMediaHeldPerCaller`). Before
     *  (issue 25), one address asking for a 45 MB video 8 at a time held the server's thread. */
    maxMediaSendingPerCaller: 6,
    /** Media of one caller being sent or waiting their turn: a page with more images than this
     *  still loads (its images come in turn); past it, `429 too_many_media`. */
    maxMediaHeldPerCaller: 64,
    /** Preview searches and agent-panel views (`/_svc/preview/search`, `/_svc/preview/agent`) of
     *  one caller (an address, an IPv6 /64, a token) being answered at once, from their limit
     *  check to their JSON: the search itself already runs one at a time per caller
     *  (`CallerTurns`), but building and writing each answer (50 results, `pageSize: 50`) did
     *  not. A reader's search box sends one at a time, and drops the earlier as they type. This
     *  bounds what one caller holds; it does not shorten another caller's wait under a flood of
     *  fresh connections (issue 25, docs/security.md: the wait is ahead of any route). */
    maxPreviewCallsRunningPerCaller: 1,
    /** Preview searches and agent-panel views of one caller answered or waiting their turn; past
     *  it, `429 too_many_searches` at once, before any work. */
    maxPreviewCallsHeldPerCaller: 8,
    /** Bytes read from disk at a time while a medium is sent: the socket asks for the next piece
     *  when it has sent this one, so a transfer holds about this much memory, not the file. */
    mediaChunkBytes: 256 * 1024,
    /** Media whose ETag (the SHA-256 of their bytes) is remembered with the file's version
     *  (inode, size, modification and change times): a site's media are a few thousand files at most. */
    mediaTagsKept: 10_000,
    /** A file changed this recently may change again within its file system's time granularity
     *  (a second or two on some) without its times showing it: its tag is not remembered yet. */
    mediaSettledMs: 2_000,
    /** Characters of API pages' articles kept between requests (`ApiArticles`): an operation's
     *  article is 5-100 KB, so this keeps a large spec's pages (hundreds) in each playground
     *  view readers get; the oldest go first. */
    apiArticleChars: 32 * 1024 * 1024,
  },
  sqlite: {
    /** How long a write waits for another connection's lock before failing with SQLITE_BUSY.
     *  Writes are single-row or one group commit of ~10 ms; 5 s covers a checkpoint on a slow
     *  disk without letting a stuck process hang a request for long. */
    busyTimeoutMs: 5_000,
  },
  postgres: {
    /** How long a query's answer is waited for before the request gets 503 and its connection is
     *  dropped: a server that stops answering on a connection (a host gone silent, a network
     *  cut that resets nothing) would otherwise hang every request queued behind it for good.
     *  Our queries take milliseconds; a `?query_timeout=` on the state URL overrides it. */
    queryTimeoutMs: 10_000,
    /** How long a statement waits for a lock (a counter row another transaction holds, a table
     *  someone locked by hand) before failing with 55P03, a 503 (`?lock_timeout=`). */
    lockTimeoutMs: 5_000,
    /** A connection left idle inside a transaction (its client died mid-way) is ended by the
     *  server after this, releasing the rows it locked (`?idle_in_transaction_session_timeout=`). */
    idleInTransactionMs: 60_000,
      /** The longest a server keeps the site settings, and an access token's row, between requests
     *  (settings-cache.ts, token-cache.ts). It
     *  keeps them only while a LISTEN connection tells it of every change, and a state command
     *  returns once every listening server has dropped its copy; this bounds the rest (a
     *  listening connection cut without the server knowing, a server that does not answer the
     *  writer in time). One read a second per process costs nothing; a writer waits at most this
     *  for a server that does not acknowledge. */
    settingsCacheMs: 1_000,
    /** Access tokens' rows a server keeps at most (token-cache.ts; the oldest goes first): a few
     *  MB, more than the callers a server serves within `settingsCacheMs`. */
    tokenCacheEntries: 10_000,
    /** How long a lost LISTEN connection waits before connecting again (nothing is cached meanwhile). */
    listenRetryMs: 1_000,
  },
  clientJson: {
    /** Arrays and objects inside one another in JSON a client sends (an MCP message over HTTP or
     *  stdio, an OAuth registration, a client's metadata document, a preview, feedback or relay
     *  body), checked on the text before it is parsed (`json-complexity.ts`). `JSON.parse`
     *  reads any depth, but the SDK's schemas (zod) and our own walkers recurse: a valid 60 KB
     *  body nested 30,000 deep cost ten times a plain request's CPU, and from 2,000-3,000 levels
     *  overflowed the stack into an HTTP 500 or a "Maximum call stack size exceeded" answer
     *  (adversary round 60 F2/F3). MCP messages nest 5-8 levels, API bodies rarely past 20; 64
     *  is far below what the walkers survive. */
    maxDepth: 64,
    /** JSON values (arrays, objects, strings, numbers, literals; member names not counted) in one
     *  HTTP body of a client's. The body bound (`bridge.maxBodyBytes`) still let 64 KB hold 20,000
     *  empty arrays, each a live object on the thread that answers everyone while the SDK's schemas
     *  copy them (adversary round 60 F1). A tool call holds tens of values and a client's
     *  capabilities a few dozen; 10,000 leaves an API request body passed to a tool room for a
     *  few thousand fields. Not applied over stdio, whose one client stalls nobody but itself. */
    maxValues: 10_000,
  },
  mcp: {
    /** Paths a shell result's provenance names: a `cat` of many pages names each, and past this
     *  many the list would outweigh the output it describes. */
    maxProvenanceReads: 50,
    /** `maxChars` of the search and shell tools (characters of the result's text). Below 200 not
     *  even one result's title, link and score fit; the shell's upper bound is its output cap,
     *  search's a full page of 50 results with their snippets. */
    minMaxChars: 200,
    maxSearchChars: 100_000,
    /** Lines a stdio server writes on stderr for the input it refuses, per episode (`refusal-log.ts`):
     *  the first few name what is wrong (a client's bug shows in one), later ones are counted. A
     *  client that floods stdin with bad lines wrote one stderr line per bad line (issue 25). */
    refusalsLoggedPerEpisode: 5,
    /** Refusals after this long without one open a new episode (logged again). */
    refusalQuietMs: 60_000,
    /** Within an episode, a line with the count of refusals not logged this often, at most. */
    refusalReminderMs: 60_000,
    /** Once a stdio client closes our stdin, how long the requests it sent before may take to be
     *  answered before the server stops anyway (`stdio-drain.ts`). Every call the server answers
     *  alone ends within its own limits, the longest a shell command's wall-clock backstop
     *  (`shell.maxExecutionMs`, 60 s) plus a worker's grace; only a request that waits on the
     *  client (which can no longer answer) would wait past this, and it must not hold the
     *  process for ever. */
    stdinDrainMs: 65_000,
  },
  config: {
    /** Largest docs.json (or `$ref`'d JSON file) read. The biggest real ones are ~100 KB (spree);
     *  megabytes of configuration are a generated mistake, and the file is parsed on every edit. */
    maxJsonBytes: 5 * 1024 * 1024,
    /** Files one docs.json may pull in through `$ref`. Real sites split into a handful (one per
     *  language, redirects); hundreds would mean a reference loop the cycle check cannot see
     *  (for example through differently spelt paths to the same file). */
    maxRefFiles: 200,
    /** Arrays and objects inside one another in docs.json, counted through its `$ref`s. Real
     *  sites nest 11-13 levels (spree, cline, stagehand); the parser, the `$ref` resolver and the
     *  validation walk values recursively, and a few thousand levels overflow the stack: a 40 KB
     *  file of `[[[...]]]` crashed `check` and `serve`. 128 is ten times the real depth and far
     *  below what the walkers survive. */
    maxJsonDepth: 128,
    /** Entries the navigation may expand to: every item of every array in docs.json once each
     *  `$ref` is replaced by its file (a file referenced four times counts four times), plus the
     *  pages a spec named by a group generates there (one per operation, per group naming it).
     *  Counted before anything is built. The synthetic 24,920-page versioned site of
     *  `bench/large-site.ts` has 25,344 entries; a 50,000-page site (the largest the project
     *  measures) about twice that. Before (adversary round 62), four `$ref`s to the next file over
     *  ten files stood for a million groups: `check` ran past 4 GB, and the edit stalled a serving
     *  process for minutes; over eight files (175,000 entries) `check` still took 20 s and 650 MB,
     *  so the bound is 100,000, not 200,000. */
    maxNavigationEntries: 100_000,
    /** Findings of one code and severity printed one a line by `check` (text output) or logged by
     *  a reload; the rest are counted in one line (`--json` lists every one). Real sites have up
     *  to a few dozen of a kind (cline: 33 pages outside the navigation); a generated mistake made
     *  65,544 lines of "listed twice" (adversary round 62). */
    maxFindingsOfAKind: 100,
  },
} as const;
