// The Linux event interfaces that Swift's Glibc module does not import (timerfd, signalfd, eventfd, pidfd), with
// the others the watch loop uses, so that one module has them all. Headers only: nothing to compile.
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/pidfd.h>
