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
CONFIG_HVC_CONSOLE=y''',
			   qemu_arch='ppc64',
			   kernel_path='vmlinux',
			   kernel_command_line='console=hvc0',
			   extra_qemu_params=['-M', 'pseries', '-cpu', 'power9'])
