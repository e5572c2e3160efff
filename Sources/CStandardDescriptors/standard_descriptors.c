// Gives a closed standard descriptor (`<&-`, `>&-`, `2>&-`) /dev/null before anything else runs,
// so that the first descriptor a program opens does not take its number. It must run before
// main: an asynchronous Swift main starts libdispatch first, whose eventfd and epoll descriptors
// took 0, 1 and 2, and serve's log and its "serving" line went into them (helper-110).
//
// Standard error gets /dev/null for writing, so that logs go nowhere; standard input and output
// get it the other way round, so that reading or writing them still fails with EBADF, as on a
// closed descriptor (`import - <&-`, `export >&-` are errors).
#include <fcntl.h>
#include <unistd.h>

__attribute__((constructor)) static void fill_closed_standard_descriptors(void) {
    static const int modes[3] = {O_WRONLY, O_RDONLY, O_WRONLY};
    for (int descriptor = 0; descriptor <= 2; descriptor++) {
        if (fcntl(descriptor, F_GETFD) != -1) continue;
        int opened = open("/dev/null", modes[descriptor]);
        if (opened >= 0 && opened != descriptor) {
            dup2(opened, descriptor);
            close(opened);
        }
    }
}
