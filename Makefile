# SPDX-License-Identifier: GPL-2.0
# faultaround: fault-around order patch series and its lab.
# Build output goes to build/, or to O=<dir>.  See README.
# BASE=6.12 (any target): the 6.12 LTS backport in patches/6.12/, with its
# own tree and outputs (build/linux-6.12...); default: patches/ on 7.3.

export O BASE
S := scripts

# The checks that `make check` runs; `make test` adds the lab's own tests,
# KUnit, upstream, the boot lab, the backport's checks and bench-quick.
CHECKS := checkpatch sparse coccicheck bisect cross fastpath module-check
BOOT := boot-normal boot-debug boot-arm64-64k boot-arm
# The 6.12 LTS backport: it applies (its tree), every patch builds, KUnit
# on UML, and the normal x86_64 kernel boots the runtime tests once (KUnit
# at boot among them, a second architecture).
BACKPORT := backport-bisect backport-kunit backport-boot
# make test runs two lists at once (run-checks.sh --beside): the lab
# kernels' builds and boots, which keep both cores busy, and beside them
# the checks that leave a core idle much of their time, then the
# backport's, whose kernels even the two out.  No build directory is in
# both.
TESTS_BUILD := kunit module-check $(BOOT) bench-quick
TESTS_BESIDE := apt-test accel-test ccache-test loop-mount-test bench-stats checkpatch sparse \
	coccicheck bisect cross fastpath upstream $(BACKPORT)

.PHONY: help deps tree series send upstream kunit check test test-setup kernel \
	module boot-test boot-kcsan bench bench-report bench-quick apt-test accel-test ccache-test \
	loop-mount-test \
	bench-stats clean \
	$(CHECKS) $(BOOT) $(BACKPORT)
.NOTPARALLEL:

help:
	@sed -n 's/^## //p' README

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh

# Not on tree: the tree's commits are the input here, and tree.sh would
# refuse them as commits that are not in patches/ yet.
series: deps
	@$(S)/series.sh

send: tree
	@$(S)/send.sh

upstream: tree
	@$(S)/upstream-check.sh

kunit: tree
	@$(S)/kunit.sh

checkpatch: tree
	@$(S)/checkpatch.sh

sparse coccicheck: tree
	@$(S)/static-check.sh $@

bisect: tree
	@$(S)/bisect.sh

cross: tree
	@$(S)/cross.sh

# The policy hook's fast path, proved on mm/memory.o (KUnit n and m).
fastpath: tree
	@$(S)/fastpath-check.sh

kernel: tree
	@$(S)/qemu/kernel.sh normal
	@$(S)/qemu/kernel.sh debug

# mod_faultaround against both lab kernels (build/mod/<variant>/)
module: tree
	@$(S)/module.sh normal
	@$(S)/module.sh debug

module-check: tree
	@$(S)/module-check.sh

# The lab's apt: retries past a mirror sync, one error line, and the base
# version rule (scripts/basever.sh), with a fake apt-get and apt-cache:
# seconds, no network, no kernel tree.
apt-test:
	@tests/lab/apt-retry-test.sh

# The compilers' ccache: a hit across build directories, never for a
# file that .incbin's another (deps.sh's masquerade, scripts/ccache-cc):
# seconds, no kernel tree.
ccache-test:
	@tests/lab/ccache-test.sh

# The guest's loop-mount.sh (init's and the bench's ext4 mounts), with a
# fake losetup and mount: seconds, no root, no QEMU.
loop-mount-test:
	@tests/lab/loop-mount-test.sh

# The boot lab's choice of KVM or TCG (lib.sh's qemu_accel), with a fake
# probe: seconds, and neither the tree nor QEMU.
accel-test:
	@tests/lab/qemu-accel-test.sh

# The bench's statistics (scripts/bench/benchstats.py) and report's parts on
# synthetic data: seconds, no QEMU, no tree.
bench-stats: deps
	@$(S)/bench/tests/bench-stats.sh

boot-test: $(BOOT)

$(BOOT): tree
	@$(S)/qemu/boot-test.sh $(@:boot-%=%)

# KCSAN (it excludes KASAN): not in make test, see Documentation/boot-lab.rst.
boot-kcsan: tree
	@$(S)/qemu/boot-test.sh kcsan

# The main job: the fault-around sweep under QEMU (knobs: README,
# Documentation/benchmarking.rst).
bench: tree
	@$(S)/bench/bench.sh

# A committed results directory's runs rendered again with today's
# statistics: no tree, no QEMU (FROM=<dir>; AA=1 for an A/A's, pooled
# with the other A/As in Documentation/results/).
bench-report: deps
	@[ -n "$(FROM)" ] || { echo "make bench-report: give FROM=<results directory>" >&2; exit 2; }
	@O="$(O)" bash -c '. $(S)/lib.sh && out=$$BUILD/bench-report/$(notdir $(FROM:/=)) && \
		mkdir -p "$$out" && python3 $(S)/bench/bench-report.py --from "$(FROM)" \
		--out "$$out" $(if $(filter 1,$(AA)),--aa $(foreach d,$(filter-out \
		$(abspath $(FROM)),$(abspath $(wildcard Documentation/results/aa-*))),--pool $(d))) | \
		tee "$$out/report.txt"'

# make bench QUICK=1: the smoke sweep that make test runs.
bench-quick: tree
	@QUICK=1 $(S)/bench/bench.sh

backport-bisect:
	@$(MAKE) --no-print-directory BASE=6.12 bisect
backport-kunit:
	@KUNIT_TARGETS=um $(MAKE) --no-print-directory BASE=6.12 kunit
backport-boot:
	@$(MAKE) --no-print-directory BASE=6.12 boot-normal

check: tree
	@$(S)/run-checks.sh $(CHECKS)

# make test runs KUnit with kunit.py where no boot lab kernel runs it built
# in: the boot lab's x86_64 kernels (4KiB pages, 512 PTEs, as UML), its
# arm64 64KiB-page kernel (8192 PTEs) and its 32-bit ARM one do, beside
# the kselftest and the module's suite.  Not arm64-16k (2048 PTEs,
# between those two; make cross compiles it): its 12 min cold would take
# make test past CI's limit.  make kunit runs it.
test: export KUNIT_TARGETS ?= ppc64-radix
test: test-setup
	@$(S)/run-checks.sh $(TESTS_BUILD) --beside $(TESTS_BESIDE)

# What checks of both lists would otherwise each install or make at the
# same time: the packages, both trees, the foreign guests' busybox, sparse.
# A step that fails fails only the checks that need it ('-'), as when
# each check made it itself; a tree is then refused, not made beside.
test-setup:
	-@$(MAKE) --no-print-directory tree
	-@$(MAKE) --no-print-directory BASE=6.12 tree
	-@$(S)/deps.sh arm64
	-@$(S)/deps.sh armhf
	-@$(S)/sparse.sh >/dev/null

clean:
	rm -rf $(or $(O),build)
