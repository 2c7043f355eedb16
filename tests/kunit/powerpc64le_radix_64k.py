# SPDX-License-Identifier: GPL-2.0
# kunit.py --qemu_config for a little-endian pseries guest with 64KiB pages
# and the radix MMU (POWER9): 32 PTEs per page table, the smallest page
# table among the architectures the series touches.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='powerpc',
			   kconfig='''
CONFIG_PPC64=y
CONFIG_CPU_LITTLE_ENDIAN=y
CONFIG_PPC_PSERIES=y
CONFIG_PPC_RADIX_MMU=y
CONFIG_PPC_64K_PAGES=y
CONFIG_HVC_CONSOLE=y
# Off: what olddefconfig would turn on and the suite does not use, for a
# smaller cold build in make test.
CONFIG_EXPERT=y
# CONFIG_PPC_POWERNV is not set
# CONFIG_NUMA is not set
# CONFIG_BLOCK is not set
# CONFIG_INPUT is not set
# CONFIG_VT is not set
# CONFIG_IO_URING is not set
# CONFIG_CPU_FREQ is not set
# CONFIG_CPU_IDLE is not set
# CONFIG_SUSPEND is not set
# CONFIG_HW_RANDOM is not set
# CONFIG_NVRAM is not set
# CONFIG_PSERIES_ENERGY is not set
# CONFIG_SECCOMP is not set''',
			   qemu_arch='ppc64',
			   kernel_path='vmlinux',
			   kernel_command_line='console=hvc0',
			   extra_qemu_params=['-M', 'pseries', '-cpu', 'power9'])
