// CAOS3, played as Asuna (C++): Sprague-Grundy values of every sub-rectangle
// (the lava cuts the map into independent rectangles; a monster at (x, y)
// splits its rectangle into the four pieces around row x and column y).
// Each turn, play a move after which the XOR of all rectangles' values is 0.
#include <array>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>
using namespace std;

int R, C;
vector<string> grid;
vector<vector<bool>> monster;
vector<unsigned short> g;  // g[at(r1, r2, c1, c2)], half-open bounds

int at(int r1, int r2, int c1, int c2) {
    return ((r1 * (R + 1) + r2) * (C + 1) + c1) * (C + 1) + c2;
}

using Rect = array<int, 4>;  // r1, r2, c1, c2

int split(const Rect& q, int x, int y) {
    return g[at(q[0], x, q[2], y)] ^ g[at(q[0], x, y + 1, q[3])] ^ g[at(x + 1, q[1], q[2], y)] ^
           g[at(x + 1, q[1], y + 1, q[3])];
}

bool caret(int i, int j) { return grid[i][j] == '^'; }

void build() {
    monster.assign(R, vector<bool>(C, false));
    int count = 0;
    for (int i = 2; i + 2 < R; i++)
        for (int j = 2; j + 2 < C; j++) {
            bool m = caret(i, j);
            for (int d = 1; d <= 2 && m; d++)
                m = caret(i - d, j) && caret(i + d, j) && caret(i, j - d) && caret(i, j + d);
            monster[i][j] = m;
            count += m;
        }
    g.assign((R + 1) * (R + 1) * (C + 1) * (C + 1), 0);
    vector<char> seen(count + 2);
    for (int h = 1; h <= R; h++)
        for (int r1 = 0; r1 + h <= R; r1++)
            for (int c1 = 0; c1 < C; c1++)
                for (int c2 = c1 + 1; c2 <= C; c2++) {
                    Rect q = {r1, r1 + h, c1, c2};
                    fill(seen.begin(), seen.end(), 0);
                    for (int x = r1; x < r1 + h; x++)
                        for (int y = c1; y < c2; y++)
                            if (monster[x][y]) {
                                int v = split(q, x, y);
                                if (v < (int)seen.size()) seen[v] = 1;
                            }
                    int mex = 0;
                    while (seen[mex]) mex++;
                    g[at(r1, r1 + h, c1, c2)] = mex;
                }
}

void play(vector<Rect>& rects, int x, int y) {
    for (size_t i = 0; i < rects.size(); i++) {
        Rect q = rects[i];
        if (q[0] <= x && x < q[1] && q[2] <= y && y < q[3]) {
            rects.erase(rects.begin() + i);
            Rect pieces[4] = {{q[0], x, q[2], y}, {q[0], x, y + 1, q[3]},
                              {x + 1, q[1], q[2], y}, {x + 1, q[1], y + 1, q[3]}};
            for (const Rect& p : pieces)
                if (p[0] < p[1] && p[2] < p[3]) rects.push_back(p);
            return;
        }
    }
}

int main() {
    cin >> R >> C;
    grid.resize(R);
    for (auto& row : grid) cin >> row;
    build();
    vector<Rect> rects = {{0, R, 0, C}};
    while (true) {
        int total = 0;
        for (const Rect& q : rects) total ^= g[at(q[0], q[1], q[2], q[3])];
        int bx = -1, by = -1, ax = -1, ay = -1;
        for (const Rect& q : rects)
            for (int x = q[0]; x < q[1] && bx < 0; x++)
                for (int y = q[2]; y < q[3] && bx < 0; y++)
                    if (monster[x][y]) {
                        if (ax < 0) ax = x, ay = y;
                        if ((total ^ g[at(q[0], q[1], q[2], q[3])] ^ split(q, x, y)) == 0) bx = x, by = y;
                    }
        if (bx < 0) bx = ax, by = ay;
        if (bx < 0) {  // no move left: lost (never, on a map the first player wins)
            cout << "0 0" << endl;
            return 0;
        }
        play(rects, bx, by);
        cout << bx + 1 << ' ' << by + 1 << endl;  // endl flushes
        int rx, ry;
        if (!(cin >> rx >> ry) || rx == 0) return 0;
        play(rects, rx - 1, ry - 1);
    }
}
