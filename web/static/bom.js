// Book of Mormon "Battle": the timer, the trivia clue view and names read aloud (issue 8).
"use strict";
