/* The coffee machine of examples/models/coffee.aut in C, single-threaded, reading with fgets.
   With the argument `buffered` its standard output is fully buffered and never flushed before
   it reads again: its answers stay in its own buffer (a system that looks silent). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    char line[256];
    int state = 0, buffered = argc > 1 && strcmp(argv[1], "buffered") == 0;
    setvbuf(stdout, NULL, buffered ? _IOFBF : _IOLBF, 4096);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (strcmp(line, "water") == 0) {
            if (state == 0) state = 1;
        } else if (strcmp(line, "pad") == 0) {
            if (state == 1) state = 2;
        } else if (strcmp(line, "button") == 0) {
            puts(state == 2 ? "coffee" : "error");
            state = 0;
        }
    }
    return 0;
}
