// The Linux event interfaces that Swift's Glibc module does not import (timerfd, signalfd, eventfd, pidfd), with
// the others the watch loop uses, so that one module has them all. Headers only: nothing to compile.
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>

// glibc's (2.36), declared here: <sys/pidfd.h> would bring <sys/stat.h> into this module, and
// `struct stat` would no longer be the one of Swift's Glibc module.
extern int pidfd_open(__pid_t pid, unsigned int flags);
