# Grid Game, played as Bob (Python): the value is the minimum-cost perfect
# matching of rows to columns (Hungarian method, O(n^3)); Bob answers every
# row with its partner in one such matching, whatever order Alice picks.
import sys


def min_matching(cost):
    """partner[i]: the column of row i in a minimum-cost perfect matching."""
    n = len(cost)
    inf = float("inf")
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    owner = [0] * (n + 1)  # owner[j]: row (1-based) on column j; column 0 is virtual
    prev = [0] * (n + 1)
    for row in range(1, n + 1):
        owner[0] = row
        slack = [inf] * (n + 1)
        used = [False] * (n + 1)
        col = 0
        while owner[col] != 0:
            used[col] = True
            i = owner[col]
            costs = cost[i - 1]
            ui = u[i]
            delta, nxt = inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = costs[j - 1] - ui - v[j]
                    if reduced < slack[j]:
                        slack[j] = reduced
                        prev[j] = col
                    if slack[j] < delta:
                        delta, nxt = slack[j], j
            for j in range(n + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] -= delta
            col = nxt
        while col != 0:
            p = prev[col]
            owner[col] = owner[p]
            col = p
    partner = [0] * n
    for j in range(1, n + 1):
        partner[owner[j] - 1] = j - 1
    return partner


def main():
    readline = sys.stdin.readline
    n = int(readline())
    board = [list(map(int, readline().split())) for _ in range(n)]
    partner = min_matching(board)
    total = 0
    for _ in range(n):
        row = int(readline()) - 1
        col = partner[row]
        total += board[row][col]
        print(col + 1, flush=True)
    print(total, flush=True)


main()
