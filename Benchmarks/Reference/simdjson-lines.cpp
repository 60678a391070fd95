// The reference decoder beside ChainTrace's in the CLI benchmark's stream-shapes table: simdjson (C++, SIMD), the
// fastest JSON parser there is, reading every line of a JSON Lines file on one thread, best of three rounds.
//
//   dom:   the full parse a replay's fallback does, every value decoded (`dom::parser::parse`);
//   stage: simdjson's first stage alone (structure indexed, UTF-8 validated) and one member read
//          (`ondemand::parser::iterate` and `doc["weight"]`) — less than any decoder that rejects bad lines must
//          do (it checks no number, escape or nesting it does not read), so a floor, not a rival.
//
// Prints one line: `lines <n> dom <seconds> stage <seconds>`; exits 1 if a line does not parse.
// Built by build-simdjson-reference.sh (Debian: libsimdjson-dev).
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace simdjson;

template <typename Body> static double bestOfThree(Body body) {
    double best = 1e30;
    for (int round = 0; round < 3; round++) {
        auto start = std::chrono::steady_clock::now();
        body();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: simdjson-lines FILE.jsonl\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        fprintf(stderr, "simdjson-lines: cannot open %s\n", argv[1]);
        return 2;
    }
    std::stringstream contents;
    contents << in.rdbuf();
    const padded_string file(contents.str());
    std::vector<std::pair<size_t, size_t>> lines;
    for (size_t start = 0; start < file.size();) {
        size_t end = std::string_view(file.data(), file.size()).find('\n', start);
        if (end == std::string_view::npos) end = file.size();
        if (end > start) lines.emplace_back(start, end - start);
        start = end + 1;
    }
    size_t failures = 0;
    double sink = 0;
    dom::parser domParser;
    const double dom = bestOfThree([&] {
        for (auto [offset, length] : lines) {
            dom::element document;
            if (domParser.parse(file.data() + offset, length, false).get(document)) {
                failures++;
                continue;
            }
            double weight;
            if (document["weight"].get(weight) == SUCCESS) sink += weight;
        }
    });
    ondemand::parser stageParser;
    const double stage = bestOfThree([&] {
        for (auto [offset, length] : lines) {
            ondemand::document document;
            // The file's own bytes after the line, and the padded string's padding after the last, are the
            // padding simdjson reads past the end.
            if (stageParser.iterate(file.data() + offset, length, file.size() - offset + SIMDJSON_PADDING).get(document)) {
                failures++;
                continue;
            }
            double weight;
            if (document["weight"].get_double().get(weight) == SUCCESS) sink += weight;
        }
    });
    if (failures > 0) {
        fprintf(stderr, "simdjson-lines: %zu lines of %s did not parse\n", failures, argv[1]);
        return 1;
    }
    printf("lines %zu dom %.6f stage %.6f\n", lines.size(), dom, stage);
    // Read, so that the parses are not optimised away; never true.
    if (sink != sink) fprintf(stderr, "simdjson-lines: a weight was not a number\n");
    return 0;
}
