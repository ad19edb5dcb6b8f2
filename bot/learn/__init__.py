"""The guided first hand (`/learn`, `python -m bot learn`): one scripted hand that teaches Stoppa.

The deal and the CPU players' moves are fixed (`script`), so a lesson's whole state is a pure
function of how many steps the learner has passed: the Discord buttons carry the step number,
nothing is stored, and a lesson survives a restart for free. `Lesson` plays the hand up to a
step and judges an answer; `texts` says it all in the learner's language, naming their real
cards. No chips of anyone's are at stake: the lesson's chips exist only in the lesson.
"""

from bot.learn.lesson import Answer, Lesson, LessonStep
from bot.learn.script import STEPS, Step

__all__ = ["STEPS", "Answer", "Lesson", "LessonStep", "Step"]
