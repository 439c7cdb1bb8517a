// Stone Game VI (LeetCode 1686), played as Alice against the referee.
// Reference in C++.
//
// Alice - Bob = sum over Alice's stones of (a + b) - sum of all b: each stone
// is worth a + b to whoever takes it, so from any position the best move is a
// stone left with the largest a + b, whatever was taken before.
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    std::vector<long long> a(n), b(n);
    for (auto &v : a) scanf("%lld", &v);
    for (auto &v : b) scanf("%lld", &v);

    std::vector<int> order(n);
    for (int i = 0; i < n; i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return a[x] + b[x] > a[y] + b[y]; });
    std::vector<bool> taken(n, false);
    int next = 0;
    long long diff = 0;
    for (int turn = 0; turn < n; turn++) {
        int stone;
        if (turn % 2 == 0) {
            while (taken[order[next]]) next++;
            stone = order[next];
            diff += a[stone];
            printf("%d\n", stone + 1);
            fflush(stdout);
        } else {
            if (scanf("%d", &stone) != 1) return 1;
            stone--;
            diff -= b[stone];
        }
        taken[stone] = true;
    }
    printf("%lld\n", diff);
    fflush(stdout);
}
