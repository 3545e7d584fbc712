# lib/net/: the part of a network stack a NIC driver meets: sk_buffs,
# net_devices, NAPI run as NET_RX_SOFTIRQ, Ethernet helpers, and the
# test's side of the stack (<dmaemu/net.h>).
lib_libdmaemu_internal_la_SOURCES += \
	lib/net/dev.c \
	lib/net/eth.c \
	lib/net/mii.c \
	lib/net/net.h \
	lib/net/skbuff.c
