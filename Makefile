# Entry point for everything: `make help` lists the targets.
SHELL := /bin/bash
SWIFT ?= swift
CORPUS ?= ../shared/corpus
BENCH_SPEC ?= $(CORPUS)/22-github-rest-api.yaml
SPECS := $(wildcard specs/*.yaml)
CLIENTGEN := .build/debug/clientgen
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help deps build generate lint corpus test check bench fuzz clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

deps: ## Install missing system packages (libyaml-dev, libsqlite3-dev, pkg-config)
	@missing=""; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	command -v pkg-config >/dev/null && pkg-config --exists yaml-0.1 || missing="$$missing libyaml-dev"; \
	command -v pkg-config >/dev/null && pkg-config --exists sqlite3 || missing="$$missing libsqlite3-dev"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q $$missing; \
	fi

build: deps ## Build the generator and the libraries (debug)
	$(SWIFT) build

generate: deps ## Build clientgen and check the specs it generates from (client generation: see README)
	$(SWIFT) build --product clientgen
	$(CLIENTGEN) lint --strict $(SPECS)

lint: deps ## Lint specs/ with clientgen (warnings fail) and with openapi-spec-validator
	$(SWIFT) build --product clientgen
	$(CLIENTGEN) lint --strict $(SPECS)
	@python3 -c 'import openapi_spec_validator, openapi_schema_validator, yaml' 2>/dev/null || \
		python3 -m pip install -q openapi-spec-validator PyYAML
	python3 scripts/validate_specs.py $(SPECS)

corpus: deps ## Load every public spec in $(CORPUS): 0 errors expected, warnings listed
	$(SWIFT) build --product clientgen
	@for spec in $(CORPUS)/*.yaml; do $(CLIENTGEN) lint "$$spec" 2>&1 | tail -n 1; $(CLIENTGEN) lint "$$spec" >/dev/null 2>&1 || exit 1; done

test: deps ## Run the test suites
	$(SWIFT) test

check: lint test ## Everything CI checks

bench: deps ## Parse and middleware benchmarks in a release build; prints BENCH lines
	$(SWIFT) build -c release --product clientgen-bench
	$(SWIFT) build -c release --product resilience-bench
	.build/release/clientgen-bench $(BENCH_SPEC) --runs 15 --name github
	.build/release/resilience-bench --requests 2000

fuzz: deps ## Mutation-fuzz clientgen lint (400 cases; SEED=n); fails on any crash
	$(SWIFT) build -c release --product clientgen
	python3 scripts/fuzz_lint.py $(or $(SEED),1)

clean: ## Remove build products
	rm -rf .build
