/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: the C client's JSON line parser and every accessor on
 * what it parsed (touchd-client.c built with TOUCHD_CLIENT_FUZZING), under
 * AddressSanitizer and UBSan. Input: one server line's bytes (no newline).
 *   make -C clients/c fuzz && clients/c/build-fuzz/fuzz-parser -max_total_time=60 CORPUS SEEDS
 * scripts/fuzz.sh runs it with the Swift harnesses; scripts/check-c.sh a short pass. */
#include <stddef.h>
#include <stdint.h>

int touchd_client_fuzz_parse(const char *text, size_t length);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    (void)touchd_client_fuzz_parse((const char *)data, size);
    return 0;
}
