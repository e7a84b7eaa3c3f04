// live.js: play a friend (filled in below)
