# Entry point for everything: `make help` lists the targets.
SHELL := /bin/bash
SWIFT ?= swift
# Debug builds into .build (tests, clientgen, the sample apps, docs) carry no
# debug information: nothing here runs under a debugger, and builds and
# links are about a tenth faster. (The index store stays: on Linux the test
# build finds its tests through it.) Each module compiles in one frontend
# job, not one per core: the build has dozens of modules to keep both cores
# busy, and one job parses and checks the module's declarations once
# (measured: the test bundle from scratch 278 -> 255 s; docs/Decisions.md).
# Every such build passes the same flags, so each reuses what the last one
# built (`make test` and CI build once). The flags live in one file, which
# the scripts read when they run outside make.
DEBUG_BUILD_FLAGS ?= $(shell cat scripts/debug_build_flags)
# The public specs `make corpus` checks: the ones kept in corpus/ (licences in corpus/README.md), or CORPUS=DIR.
CORPUS ?= corpus
# The spec `make guide` plays the team's own with: the OpenAPI Initiative's petstore.
GUIDE_SPEC ?= $(CORPUS)/01-oai-petstore.yaml
BENCH_SPEC ?= $(CORPUS)/22-github-rest-api.yaml
SPECS := $(wildcard specs/*.yaml)
# clientgen is a product of the generator package (Generator/); the SDK package depends on it, so it builds into .build too.
CLIENTGEN := .build/debug/clientgen
CLIENTS := specs/clients.json
# The specs `make conformance` calls every operation of: specs/ and corpus/, or CONFORMANCE_SPECS=DIR (files or folders).
CONFORMANCE_SPECS ?= specs corpus
# The share of operations that must round-trip (percent).
CONFORMANCE_MIN ?= 99
# Specs (files or folders) called in the same run, every operation of which must pass.
CONFORMANCE_REQUIRE_ALL ?=
# Specs `make corpus` leaves out (CORPUS_SKIP=22-github-rest-api.yaml skips the 3 MB GitHub spec, whose build alone takes minutes).
CORPUS_SKIP ?=
# `make bench BENCH_CODEGEN_FLAGS=--peer-compile` also compiles the peer's GitHub client (4+ minutes, 7 GB).
BENCH_CODEGEN_FLAGS ?=
export CORPUS BENCH_SPEC BENCH_CODEGEN_FLAGS SWIFT DEBUG_BUILD_FLAGS
# `make spec-diff` compares specs/ against BASE=<commit> (default: the merge base with origin/main; scripts/spec_diff.sh).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The products `make api-diff` compares: what apps and generated clients link.
API_PRODUCTS ?= ClientRuntime Resilience ClientRuntimeTesting SecureNodeSDK SecureNode BrandingStore SecureNodeCallDirectory Soul Safepocket MobileTracker

# Where `make install` puts clientgen (bin/) and its completion scripts (share/).
PREFIX ?= /usr/local
# The build `make install` installs (release; CI checks the target with debug, which builds faster).
INSTALL_CONFIGURATION ?= release
# Extra flags of that build (make install-check passes DEBUG_BUILD_FLAGS, so its debug build reuses .build's).
INSTALL_BUILD_FLAGS ?=

.PHONY: help deps build bench-build api-diff install install-check generate drift spec-diff lint layout privacy ios-check yaml-copies corpus conformance ci-conformance references guide plugin-check url-check docs sandbox sandbox-check sandbox-fuzz sandbox-e2e test test-heavy check ci bench bench-compare ios-size fuzz clean

# What `make help` shows: the ten an app team or a contributor runs; `make help ALL=1` lists every target.
HELP_TARGETS := generate test check lint conformance docs ios-check bench bench-compare ci
help: ## List what you run (ALL=1: every target)
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' -v all="$(ALL)" -v shown="$(HELP_TARGETS)" \
		'BEGIN { n = split(shown, list, " "); for (i = 1; i <= n; i++) keep[list[i]] = 1 } all != "" || ($$1 in keep) { printf "  make %-13s %s\n", $$1, $$2 }'
	@[ -n "$(ALL)" ] || echo "  (make help ALL=1: every target, CI's steps included)"

deps: ## Install missing system packages on Linux (libyaml-dev, pkg-config, libsqlite3-dev, openssl: apt-get); a Mac needs Xcode alone
	@if [ "$$(uname -s)" = Darwin ]; then \
		command -v swift >/dev/null || { echo "deps: install Xcode (it brings swift); nothing else is needed: libyaml is built with the package" >&2; exit 1; }; \
		exit 0; \
	fi; \
	missing=""; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	command -v pkg-config >/dev/null && pkg-config --exists yaml-0.1 || missing="$$missing libyaml-dev"; \
	command -v pkg-config >/dev/null && pkg-config --exists sqlite3 || missing="$$missing libsqlite3-dev"; \
	command -v openssl >/dev/null || missing="$$missing openssl"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q $$missing; \
	fi

build: deps ## Build the generator and the libraries (debug)
	$(SWIFT) build $(DEBUG_BUILD_FLAGS)

install: deps ## Install clientgen in PREFIX/bin (default /usr/local) with bash, zsh and fish completion in PREFIX/share
	$(SWIFT) build -c $(INSTALL_CONFIGURATION) $(INSTALL_BUILD_FLAGS) --product clientgen
	install -d "$(PREFIX)/bin" "$(PREFIX)/share/bash-completion/completions" "$(PREFIX)/share/zsh/site-functions" "$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 "$$($(SWIFT) build -c $(INSTALL_CONFIGURATION) $(INSTALL_BUILD_FLAGS) --show-bin-path)/clientgen" "$(PREFIX)/bin/clientgen"
	"$(PREFIX)/bin/clientgen" --generate-completion-script bash > "$(PREFIX)/share/bash-completion/completions/clientgen"
	"$(PREFIX)/bin/clientgen" --generate-completion-script zsh > "$(PREFIX)/share/zsh/site-functions/_clientgen"
	"$(PREFIX)/bin/clientgen" --generate-completion-script fish > "$(PREFIX)/share/fish/vendor_completions.d/clientgen.fish"
	@echo "installed clientgen $$("$(PREFIX)/bin/clientgen" --version) in $(PREFIX)/bin"

generate: deps ## Regenerate Sources/Clients/ from specs/ (the clients listed in specs/clients.json)
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --product clientgen
	$(CLIENTGEN) lint --strict $(SPECS)
	$(CLIENTGEN) generate --config $(CLIENTS)

drift: deps ## Fail, naming the files, when Sources/Clients/ differs from what specs/ produce
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --product clientgen
	$(CLIENTGEN) generate --config $(CLIENTS) --check --regenerate-command 'make generate'

spec-diff: deps ## Fail when a spec change breaks shipped clients (ERR findings against BASE=<commit>)
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --product clientgen
	CLIENTGEN=$(CLIENTGEN) CLIENTS=$(CLIENTS) DIFF_IGNORE=$(DIFF_IGNORE) BASE=$(BASE) scripts/spec_diff.sh

lint: deps ## Lint specs/ with clientgen (warnings fail) and with openapi-spec-validator
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --product clientgen
	$(CLIENTGEN) lint --strict $(SPECS)
	@python3 -c 'import openapi_spec_validator, openapi_schema_validator, yaml' 2>/dev/null || \
		python3 -m pip install -q openapi-spec-validator PyYAML
	python3 scripts/validate_specs.py $(SPECS)

corpus: deps ## Lint, generate and compile a client for every spec in $(CORPUS) (CORPUS=DIR); prints CORPUS lines
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --product clientgen
	@for spec in $(wildcard $(CORPUS)/*.yaml $(CORPUS)/*.json); do $(CLIENTGEN) lint "$$spec" 2>&1 | tail -n 1; $(CLIENTGEN) lint "$$spec" >/dev/null 2>&1 || exit 1; done
	python3 scripts/corpus.py $(CLIENTGEN) $(CORPUS) $(foreach s,$(CORPUS_SKIP),--skip $(s))

conformance: deps ## Call every operation of each spec in CONFORMANCE_SPECS through its generated client over loopback, checked by openapi-core; prints CONFORMANCE lines
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --product clientgen
	python3 scripts/conformance/run.py --clientgen $(CLIENTGEN) --specs $(CONFORMANCE_SPECS) --min-percent $(CONFORMANCE_MIN) $(if $(CONFORMANCE_REQUIRE_ALL),--require-all $(CONFORMANCE_REQUIRE_ALL))

ci-conformance: # The harness's own tests, then one run of the default folders (which compiles every corpus client: what make corpus checks) with the serialisation shapes (Stripe's bracket forms, encoding, allowReserved), every call of which must pass
	@python3 -c 'import openapi_core, jsonschema, yaml, werkzeug, pytest, hypothesis_jsonschema' 2>/dev/null || python3 -m pip install -q --require-hashes -r scripts/conformance/requirements.txt
	python3 -m pytest -q -p no:cacheprovider scripts/conformance
	$(MAKE) --no-print-directory conformance CONFORMANCE_REQUIRE_ALL=scripts/conformance/specs

docs: deps ## DocC reference of ClientRuntime, Resilience and the SDKs in .build/docs (docc, warnings fail)
	python3 scripts/docs.py

plugin-check: deps ## An app package outside this repository, depending on it by URL, generating its client with the build and command plugins
	python3 scripts/plugin_check.py

url-check: deps ## Apps outside this repository adding its products by URL and version: resolved, built, run; prints what each fetched and built
	python3 scripts/url_check.py

guide: deps ## Follow docs/OwnSpec.md word for word in a scratch package, with GUIDE_SPEC as the team's spec
	python3 scripts/own_spec_guide.py $(GUIDE_SPEC)

sandbox: deps ## Serve the four backends on PORT (default 8080), every request checked against its spec
	swift run --package-path Sandbox/Server sandbox --port $(or $(PORT),8080) --specs specs

sandbox-check: deps ## Build the sandbox, check it over loopback, print BENCH sandbox-* figures
	python3 scripts/sandbox_check.py

sandbox-fuzz: deps ## Schemathesis (pinned, in a virtual environment of its own) against the four backends of the sandbox, every check, seeded; fails on any failure or warning (EXAMPLES=n per operation, default 100)
	python3 scripts/sandbox_fuzz/run.py --examples $(or $(EXAMPLES),100)

sandbox-e2e: deps ## The four sample apps (SDKs) end to end against the sandbox process, with faults; 1M-number RSS
	python3 scripts/sandbox_e2e.py

references: deps ## Compile every reference test's expected output (the Reference* targets, which the test build compiles too) against ClientRuntime
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --target CodegenTests

test: deps ## Build the tests once and run every suite (Generator, Runtime, Sandbox, SDKs), the repeated experiments as samples; prints each part's time
	scripts/test.sh

test-heavy: deps ## The repeated experiments at full size (200 kills of a 100,000-record sync, 10,000 fuzzed syncs, 100,000 events, 100-kill runs; CI runs it)
	TEST_SCALE=full TEST_PHASES=experiments scripts/test.sh

check: lint drift spec-diff test ## The quick pre-push set: spec lint, generated-code drift, breaking spec changes, tests (the references compiled with them)

layout: ## Fail when a target's folder is not named as the target, a document links a file that does not exist, or a module's public surface differs from the CHANGELOG's list
	python3 scripts/check_layout.py
	python3 scripts/surface.py --check
	python3 scripts/surface.py --self-test

privacy: ## Each target's App Store privacy manifest against its code (required-reason APIs declared, Apple's keys and values)
	python3 scripts/check_privacy.py
	python3 scripts/check_privacy.py --self-test

yaml-copies: deps ## The system libyaml (Linux) and the vendored copy (Apple platforms) read every spec to equal trees; the copy's symbols all prefixed
	python3 scripts/yaml_copies.py

ios-check: ## Type-check every Apple adapter for iOS (IOS_SDK=<iPhoneOS SDK>; Linux: IOS_APINOTES or IOS_RESOURCE_DIR); no Apple-only import elsewhere
	python3 scripts/ios_check.py

install-check: deps ## make install into a scratch prefix and check the version and completion scripts it installed
	scripts/install_check.sh

# The one list of what CI runs (.ci/run installs what is missing, then calls this), in order.
# Steps joined by + run side by side (scripts/ci.sh): each pair shares no
# build folder, and each of them alone leaves a quarter of the cores idle
# (measured: ci-conformance 75% busy, guide 79%, plugin-check 80%, docs 46%).
CI_STEPS := test test-heavy bench-build layout privacy ios-check yaml-copies lint drift spec-diff ci-conformance+guide plugin-check+docs url-check install-check sandbox-check sandbox-fuzz sandbox-e2e
ci: ## Everything CI runs, in CI's order (CI_STEPS), each step timed
	scripts/ci.sh $(CI_STEPS)

bench-build: deps ## Compile every target and benchmark without running one (debug, sharing the tests' build), the peer comparison's package too; type-check the sample apps as code outside the package (public API only)
	$(SWIFT) build $(DEBUG_BUILD_FLAGS)
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --package-path Benchmarks/PeerComparison --product client-call-bench
	python3 scripts/surface.py --examples
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --package-path Benchmarks/PeerComparison --product event-stream-bench

api-diff: deps ## What an app could reach at BASE=<revision> (default: the last release tag) and no longer can, per product an app links (swift-api-digester; about 7 minutes)
	$(SWIFT) package diagnose-api-breaking-changes $(or $(BASE),$(shell git describe --tags --abbrev=0 2>/dev/null),$(error BASE=<revision> is needed: no release tag here)) --products $(API_PRODUCTS)

bench: deps ## Parse, middleware, SDK, branding store and code generation benchmarks (release); prints BENCH lines
	scripts/bench.sh

bench-compare: deps ## HEAD's benchmarks against BASE=<revision>'s (default: the last release tag), interleaved in one run: median ratio per figure
	python3 scripts/bench_compare.py $(or $(BASE),$(shell git describe --tags --abbrev=0 2>/dev/null),$(error BASE=<revision> is needed: no release tag here)) $(if $(PAIRS),--pairs $(PAIRS)) $(if $(COMPILE_PAIRS),--compile-pairs $(COMPILE_PAIRS)) $(if $(ONLY),--only $(ONLY))

ios-size: ## Object code per module compiled for arm64-apple-ios16.0 with -Osize (IOS_SDK=<iPhoneOS SDK>; Linux: IOS_APINOTES), against the peer's client
	python3 scripts/ios_size.py

fuzz: deps ## Mutation-fuzz clientgen lint, generate and diff (400 cases; SEED=n), hostile strings in every place of a spec (no live code), hostile structures against a same-size ordinary spec (time and output); fails on any crash or bound passed
	$(SWIFT) build -c release --product clientgen
	python3 scripts/fuzz_lint.py $(or $(SEED),1)
	python3 scripts/fuzz_bounds.py .build/release/clientgen
	$(SWIFT) build $(DEBUG_BUILD_FLAGS) --target ClientRuntime
	python3 scripts/fuzz_hostile.py .build/release/clientgen .build/debug/Modules

clean: ## Remove build products
	rm -rf .build .build-bench .build-ios .build-ios-size .build-sandbox-fuzz Sandbox/Server/.build Benchmarks/PeerComparison/.build
