// Preloaded into the test process under valgrind 3.19 (see run.sh); never part of the program.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <poll.h>
#include <spawn.h>
#include <stdint.h>
#include <unistd.h>

// swift-testing's entry point is an async main, which ends the main thread in dispatch_main
// (pthread_exit, then sigsuspend); valgrind 3.19 crashes on the next thread created after
// that. Instead the main thread drains the main dispatch queue itself, as a run loop does.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *);
typedef void (*drain_hook)(void *, void *);
extern drain_hook swift_task_asyncMainDrainQueue_hook;

static void drain_main_queue(void *original, void *override) {
    (void)original;
    (void)override;
    int fd = _dispatch_get_main_queue_handle_4CF();
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 20) > 0) {
            uint64_t count;
            (void)read(fd, &count, sizeof count);
        }
        _dispatch_main_queue_callback_4CF(0);
    }
}

__attribute__((constructor)) static void install(void) { swift_task_asyncMainDrainQueue_hook = drain_main_queue; }

// Foundation's Process closes every descriptor up to the highest in /proc/self/fd, which under
// valgrind includes valgrind's own, above the limit it reports: glibc refuses those (EBADF) and
// the spawn fails. They are skipped.
int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *actions, int fd) {
    static int (*real)(posix_spawn_file_actions_t *, int);
    if (!real) real = (int (*)(posix_spawn_file_actions_t *, int))dlsym(RTLD_NEXT, "posix_spawn_file_actions_addclose");
    if (fd >= getdtablesize()) return 0;
    return real(actions, fd);
}
