# SPDX-License-Identifier: GPL-2.0
# faultaround: fault-around order patch series and its lab.
# Build output goes to build/, or to O=<dir>.  See README.

export O
S := scripts

# The checks that `make check` runs, then `make test` adds the others.
CHECKS := checkpatch sparse coccicheck bisect cross
TESTS := kunit $(CHECKS)

.PHONY: help deps tree kunit check test $(CHECKS) clean
.NOTPARALLEL:

help:
	@sed -n 's/^## //p' README

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh

kunit: tree
	@$(S)/kunit.sh

checkpatch: tree
	@$(S)/checkpatch.sh

sparse: tree
	@$(S)/static-check.sh sparse

coccicheck: tree
	@$(S)/static-check.sh coccicheck

bisect: tree
	@$(S)/bisect.sh

cross: tree
	@$(S)/cross.sh

check: tree
	@$(S)/run-checks.sh $(CHECKS)

test: tree
	@$(S)/run-checks.sh $(TESTS)

clean:
	rm -rf $(or $(O),build)
